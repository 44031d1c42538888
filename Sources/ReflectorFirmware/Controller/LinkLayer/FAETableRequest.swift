/// The Channel Sounding mode-0 FAE table request (Core 6.0 Vol 6 Part B §5.1.25): LE CS Read
/// Remote FAE Table sends LL_CS_FAE_REQ, and the peer answers LL_CS_FAE_RSP with its 72-entry
/// table of frequency actuation errors (the initiator corrects mode-0 measurements with it).
/// This holds the requesting side's wait.
struct FAETableRequest: Sendable {
    private(set) var state = LLProcedureState.idle

    var isBusy: Bool { !state.isIdle }

    /// LL_CS_FAE_REQ went out at `now`.
    mutating func start(at now: UInt64) { state = .awaitingResponse(since: now) }

    /// The table arrived, or the peer refused: returns whether a request of ours was waiting.
    @discardableResult
    mutating func end() -> Bool {
        defer { state = .idle }
        return isBusy
    }
}
