/// Why a CS procedure was aborted: the low nibble of Abort_Reason (Core 6.0 Vol 4 Part E
/// §7.7.65.44; values per Zephyr, BlueZ and TI, not Bumble's).
public enum ProcedureAbortReason: UInt8, Sendable, Equatable, CaseIterable {
    case none = 0x0
    /// Aborted by the local host or a remote request.
    case localOrRemoteRequest = 0x1
    /// The filtered channel map has fewer than 15 channels.
    case insufficientChannels = 0x2
    /// The channel map update instant has passed.
    case channelMapUpdateInstantPassed = 0x3
    case unspecified = 0xF
}
