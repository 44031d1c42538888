/// The Channel Sounding start procedure (Core 6.0 Vol 6 Part B §5.1.27): the side whose host
/// enabled procedures sends LL_CS_REQ with the schedule it proposes. A peripheral answering the
/// central's request sends LL_CS_RSP and waits for LL_CS_IND; a central answers either request
/// with LL_CS_IND, which fixes the first procedure's connection event and offset, and both
/// sides start. Every wait runs under T_PRT.
///
/// When both sides send LL_CS_REQ at once the central wins (§5.3): it rejects the peripheral's
/// with LL Procedure Collision and goes on, and the peripheral answers the central's while its
/// own request only waits for that reject (`yield()`).
struct CSStartProcedure: Sendable {
    private(set) var state = LLProcedureState.idle
    /// This side's LL_CS_REQ, until the peer answers or refuses it.
    private(set) var localRequest: LLCSReq?
    /// The central's LL_CS_REQ this peripheral answered with LL_CS_RSP, until LL_CS_IND.
    private(set) var answeredRequest: LLCSReq?
    /// The configuration of this peripheral's own request that gave way to the central's, until
    /// the central's reject arrives and its failure is reported.
    private(set) var yieldedConfigID: UInt8?

    /// Whether this side's own request waits for the peer (what a collision is about).
    var isBusy: Bool { localRequest != nil }
    /// Whether any part of the procedure is under way (the host may not start another).
    var isInProgress: Bool { localRequest != nil || answeredRequest != nil || yieldedConfigID != nil }

    /// This side's LL_CS_REQ went out at `now`.
    mutating func start(_ req: LLCSReq, at now: UInt64) {
        localRequest = req
        state = .awaitingResponse(since: now)
    }

    /// This peripheral answered the central's `req` with LL_CS_RSP at `now`.
    mutating func answered(_ req: LLCSReq, at now: UInt64) {
        answeredRequest = req
        state = .awaitingResponse(since: now)
    }

    /// The peripheral gives way to the central's request: its own stops waiting for an answer.
    mutating func yield() {
        guard let req = localRequest else { return }
        yieldedConfigID = req.configID
        localRequest = nil
        if answeredRequest == nil { state = .idle }
    }

    /// The central receives LL_CS_RSP: its request for that configuration, which it now fixes.
    mutating func responded(configID: UInt8) -> LLCSReq? {
        guard let req = localRequest, req.configID == configID else { return nil }
        localRequest = nil
        state = .idle
        return req
    }

    /// The peripheral receives LL_CS_IND: the request it fixes (the central's it answered, or its own).
    mutating func indicated(configID: UInt8) -> LLCSReq? {
        if let req = answeredRequest, req.configID == configID {
            answeredRequest = nil
            if localRequest == nil { state = .idle }
            return req
        }
        if let req = localRequest, req.configID == configID {
            localRequest = nil
            state = .idle
            return req
        }
        return nil
    }

    /// The peer rejected our LL_CS_REQ: the configuration whose enable failed, if one waited
    /// (a request that gave way to the central's first).
    mutating func requestRefused() -> UInt8? {
        if let id = yieldedConfigID {
            yieldedConfigID = nil
            return id
        }
        guard let req = localRequest else { return nil }
        localRequest = nil
        if answeredRequest == nil { state = .idle }
        return req.configID
    }

    /// The central rejected our LL_CS_RSP: the configuration whose enable failed, if one waited.
    mutating func responseRefused() -> UInt8? {
        guard let req = answeredRequest else { return nil }
        answeredRequest = nil
        if localRequest == nil { state = .idle }
        return req.configID
    }
}
