/// Where an LL procedure stands on this side of the connection: idle, or waiting for the peer's
/// next PDU since a time on the controller clock (µs).
///
/// Each side runs the procedure response timer T_PRT while it waits. A response that has not
/// come after T_PRT = 40 s means the connection is lost: the Link Layer leaves the Connection
/// state and tells its host with reason LL Response Timeout, 0x22 (Core 6.0 Vol 6 Part B §5.2).
/// The timer restarts with every PDU of the procedure that expects another.
public enum LLProcedureState: Sendable, Equatable {
    case idle
    case awaitingResponse(since: UInt64)

    /// T_PRT, the procedure response timeout: 40 s (Vol 6 Part B §5.2).
    public static let responseTimeout: UInt64 = 40_000_000

    public var isIdle: Bool { self == .idle }

    /// When the wait began, or nil when idle.
    public var waitingSince: UInt64? {
        guard case .awaitingResponse(let since) = self else { return nil }
        return since
    }

    /// Whether T_PRT has expired at `time`: from exactly 40 s after the wait began, not before.
    public func hasTimedOut(at time: UInt64) -> Bool {
        guard let since = waitingSince else { return false }
        return time >= since && time - since >= Self.responseTimeout
    }
}
