/// What the DRBG's random bits are for (Core 6.0 Vol 6 Part E §3.1.6, Table 3.x): each
/// purpose draws from its own stream, so one purpose never shifts another's bits.
public enum TransactionID: UInt8, CaseIterable, Sendable {
    /// CSA #3b/#3c channel shuffles for non-mode-0 steps.
    case channelSelection = 0
    /// The mode-0 channel shuffle.
    case mode0ChannelSelection = 1
    /// The number of main-mode steps before a sub-mode step.
    case subModeInsertion = 2
    /// Whether each side's tone-extension slot carries a tone.
    case toneExtensionPresence = 3
    /// The antenna path permutation of a mode-2/3 step.
    case antennaPermutation = 4
    /// The CS access addresses of a mode-0/1/3 step.
    case accessAddress = 5
    /// Sounding-sequence marker position.
    case soundingMarkerPosition = 6
    /// Sounding-sequence marker signal.
    case soundingMarkerSignal = 7
    /// Random-sequence payload.
    case randomSequence = 8
    /// Backtracking resistance at each new procedure.
    case backtrackingResistance = 9
}
