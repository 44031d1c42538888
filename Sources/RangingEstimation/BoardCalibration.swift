import EmulatorMath

/// What a board's own hardware adds to every distance, learned once and taken off every
/// procedure: a delay per antenna path and the pair's round-trip-timing offset.
///
/// Why: each antenna path of a real board runs through its own matching network, RF switch
/// port, traces and antenna, and each delays the signal by its own amount. The specification
/// asks for the PCTs (Core 6.0 Vol 4 Part E §7.7.65.44) to be referred to the antenna port, but
/// what lies between the port and the air stays in them: Silicon Labs calibrate board and
/// antenna delay per design (reference estimation.md §1.5), and the four paths of their
/// recorded procedure (data/field/silabs-one-procedure) read up to 1.8 m apart. A path delay
/// Δ_p, in metres of one-way distance, turns path p's round-trip tones by −4π·f·Δ_p/c, so its
/// distance reads Δ_p long; `apply` turns each tone back by e^{+j4π·f·Δ_p/c}. The timing offset
/// is the same for round trips: RF and processing delays lengthen every step's RTT, and
/// `RoundTripTimeEstimator.offset` takes `roundTripOffset` off its distance.
///
/// A calibration is `relative` when it was learned without a known distance: its delays are the
/// paths' differences, referred to their median (the median path stays where it was), so it
/// brings the paths together but leaves the board's common delay in; `absolute` when learned
/// at a known distance, where the common delay is measured too (`BoardCalibrationLearner`).
/// A per-channel phase and amplitude response is not modelled: on the one 4-path procedure
/// there is, no such table can be learned on some channels and tested on others, and a delay
/// per path is what the spread between paths needs (docs/decisions.md).
public struct BoardCalibration: Sendable, Equatable {
    public enum Reference: String, Sendable, Equatable, CaseIterable {
        /// Delays relative to the paths' median; the common delay unknown.
        case relative
        /// Delays measured against a known distance.
        case absolute
    }

    /// `pathDelays[p]`: antenna path p's delay in metres of one-way distance. A procedure's paths
    /// past the list are left as they are.
    public var pathDelays: [Double]
    /// The RTT offset in metres of one-way distance, subtracted from round-trip-timing distances;
    /// nil when none was learned (no timed steps, or a relative calibration).
    public var roundTripOffset: Double?
    public var reference: Reference

    public init(pathDelays: [Double], roundTripOffset: Double? = nil, reference: Reference) {
        self.pathDelays = pathDelays
        self.roundTripOffset = roundTripOffset
        self.reference = reference
    }

    /// No correction at all.
    public static let none = BoardCalibration(pathDelays: [], reference: .relative)

    /// Whether the calibration changes nothing.
    public var isEmpty: Bool { pathDelays.allSatisfy { $0 == 0 } && (roundTripOffset ?? 0) == 0 }

    /// `tones` with each path's delay taken off: tone k of path p times e^{+j4π·f_k·Δ_p/c}.
    /// Allocates nothing beyond the copy of the tones it returns.
    public func apply(to tones: ToneSet) -> ToneSet {
        var out = tones
        apply(to: &out)
        return out
    }

    /// As `apply(to:)`, in place.
    public func apply(to tones: inout ToneSet) {
        for p in 0..<min(pathDelays.count, tones.paths.count) where pathDelays[p] != 0 {
            let radiansPerHz = 4 * Double.pi * pathDelays[p] / Ranging.speedOfLight
            for k in tones.paths[p].indices {
                tones.paths[p][k].value = tones.paths[p][k].value * Complex(phase: radiansPerHz * tones.paths[p][k].frequency)
            }
        }
    }

    /// `estimator` with the RTT offset in its round-trip timing (`RoundTripTimeEstimator`, and
    /// `CombinedEstimator`'s timing): a phase-based estimator is returned as it is.
    public func timing(_ estimator: any DistanceEstimator) -> any DistanceEstimator {
        guard let offset = roundTripOffset, offset != 0 else { return estimator }
        if var rtt = estimator as? RoundTripTimeEstimator {
            rtt.offset += offset
            return rtt
        }
        if var combined = estimator as? CombinedEstimator {
            combined.timing.offset += offset
            return combined
        }
        return estimator
    }
}
