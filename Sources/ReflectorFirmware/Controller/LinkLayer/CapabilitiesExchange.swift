/// The Channel Sounding capabilities exchange (Core 6.0 Vol 6 Part B §5.1.24): LE CS Read
/// Remote Supported Capabilities sends LL_CS_CAPABILITIES_REQ with this side's capabilities,
/// and the peer answers LL_CS_CAPABILITIES_RSP with its own; each side keeps the other's. Either
/// side may start it, and two crossing requests are both answered (no instant, no collision).
/// This holds the requesting side's wait.
struct CapabilitiesExchange: Sendable {
    private(set) var state = LLProcedureState.idle

    var isBusy: Bool { !state.isIdle }

    /// LL_CS_CAPABILITIES_REQ went out at `now`.
    mutating func start(at now: UInt64) { state = .awaitingResponse(since: now) }

    /// The response arrived, or the peer refused: returns whether a request of ours was waiting
    /// (a response nobody asked for is ignored).
    @discardableResult
    mutating func end() -> Bool {
        defer { state = .idle }
        return isBusy
    }
}
