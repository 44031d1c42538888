/// An LL procedure of one request and its response, with nothing to agree on between them: the
/// requesting side sends the request, waits (the 40 s response timeout runs on `state`), and is
/// done when the response or a refusal comes. Two crossing requests are both answered (no
/// instant, no collision). The CS capabilities exchange and the FAE table request are two.
struct SingleRequestProcedure: Sendable {
    private(set) var state = LLProcedureState.idle

    var isBusy: Bool { !state.isIdle }

    /// The request went out at `now`.
    mutating func start(at now: UInt64) { state = .awaitingResponse(since: now) }

    /// The response arrived, or the peer refused: returns whether a request of ours was waiting
    /// (a response nobody asked for is ignored).
    @discardableResult
    mutating func end() -> Bool {
        defer { state = .idle }
        return isBusy
    }
}
