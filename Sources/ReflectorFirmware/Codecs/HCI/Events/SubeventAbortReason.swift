/// Why a CS subevent was aborted: the high nibble of Abort_Reason (Core 6.0 Vol 4 Part E
/// §7.7.65.44; values per Zephyr, BlueZ and TI).
public enum SubeventAbortReason: UInt8, Sendable, Equatable, CaseIterable {
    case none = 0x0
    /// Aborted by the local host or a remote request.
    case localOrRemoteRequest = 0x1
    /// No CS_SYNC (mode-0) packet was received.
    case noCSSyncReceived = 0x2
    /// A scheduling conflict or limited resources.
    case schedulingConflict = 0x3
    case unspecified = 0xF
}
