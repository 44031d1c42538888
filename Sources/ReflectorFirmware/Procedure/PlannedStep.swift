/// One step of a procedure as both controllers derive it: what the radio does, on which channel,
/// with which antennas and access addresses, and when. Plain fixed-size value: the per-step path
/// hands these out without allocating.
public struct PlannedStep: Sendable, Equatable {
    /// The CS step counter: the step's index in its procedure, mode-0 steps included.
    public var index: UInt16
    /// The subevent (0-based) the step belongs to.
    public var subevent: UInt8
    public var kind: StepKind
    public var mode: CSMode
    /// CS channel index k (RF 2402 + k MHz).
    public var channel: UInt8
    /// Access addresses, for steps with CS_SYNC packets (modes 0, 1, 3).
    public var accessAddresses: AccessAddressPair?
    /// Antenna permutation index, for steps with tones (modes 2, 3); 0 otherwise.
    public var antennaPermutationIndex: UInt8
    /// Which sides send a tone in the extension slot (modes 2, 3); `.none` otherwise.
    public var toneExtension: ToneExtension
    /// Sounding-sequence markers for mode-1/3 steps with a sounding RTT type.
    public var soundingMarker: SoundingMarker?
    /// Start of the step, in microseconds from the start of the procedure.
    public var startMicroseconds: UInt32
    public var durationMicroseconds: UInt32
}
