/// Which of a procedure's tones an estimate uses: all of them, or those on even or odd CS
/// channel indices. Each half spans the whole band, so it keeps the aperture (and nearly the
/// resolution) of the whole, on half the tones: a calibration learned on one half of a
/// procedure and applied to the other is tested on tones it did not see, which is the honest
/// test when a recording has one procedure (`estimate --channels`).
public enum ChannelSubset: String, Sendable, Equatable, CaseIterable {
    case all
    case even
    case odd

    /// Whether a tone on `channel` is kept.
    @inline(__always) public func keeps(_ channel: UInt8) -> Bool {
        switch self {
        case .all: true
        case .even: channel % 2 == 0
        case .odd: channel % 2 == 1
        }
    }

    /// `tones` with only the kept channels' tones.
    public func apply(to tones: ToneSet) -> ToneSet {
        self == .all ? tones : ToneSet(paths: tones.paths.map { $0.filter { keeps($0.channel) } })
    }
}
