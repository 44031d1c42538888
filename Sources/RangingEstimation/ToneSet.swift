import EmulatorMath
/// The phase-based ranging input of one procedure, as the initiator's host assembles it: for
/// each antenna path, the round-trip tone of every sounded channel. With inline PCT transfer a
/// tone is the initiator's own PCT; without it, the product of the initiator's and the
/// reflector's PCTs on that channel and path (plain product, no conjugate). Either way its
/// phase is −4π·f·d/c plus multipath and noise.
public struct ToneSet: Sendable, Equatable {
    /// One round-trip tone.
    public struct Tone: Sendable, Equatable {
        /// CS channel index k: RF 2402 + k MHz.
        public var channel: UInt8
        public var value: Complex
        /// Whether the tone is used: both sides rated its quality high or medium, or, for a tone
        /// a controller did not rate (`isRated` false), the estimator's own checks passed it.
        public var isGood: Bool
        /// Whether the controllers said how good the tone is. A tone whose Tone_Quality_Indicator
        /// is 3, "quality unavailable" (Core 6.0 Vol 4 Part E §7.7.65.44), is not a bad tone but
        /// an unrated one: `ToneScreening` judges it (amplitude against the procedure's,
        /// consistency across repeated channels and antenna paths) before any estimate, and sets
        /// `isGood` from that. Silicon Labs' controllers rate every tone so.
        public var isRated: Bool

        public init(channel: UInt8, value: Complex, isGood: Bool = true, isRated: Bool = true) {
            self.channel = channel
            self.value = value
            self.isGood = isGood
            self.isRated = isRated
        }

        /// The tone's RF frequency in Hz.
        @inline(__always) public var frequency: Double { (2402.0 + Double(channel)) * 1e6 }
    }

    /// `paths[p]` holds antenna path p's tones, in the order they were measured (a channel may
    /// repeat, for example through main-mode repetition steps).
    public var paths: [[Tone]]

    public init(paths: [[Tone]]) { self.paths = paths }

    /// Number of good tones over all paths.
    public var goodToneCount: Int { paths.reduce(0) { $0 + $1.lazy.filter(\.isGood).count } }

    /// Number of tones no controller rated (quality unavailable), over all paths.
    public var unratedToneCount: Int { paths.reduce(0) { $0 + $1.lazy.filter { !$0.isRated }.count } }
}
