/// The Channel Sounding security start procedure (Core 6.0 Vol 6 Part B §5.1.23): only the
/// central starts it, sending its fresh CS_IV_C, CS_IN_C and CS_PV_C in LL_CS_SEC_REQ; the
/// peripheral answers at once with its halves in LL_CS_SEC_RSP, and both sides derive the same
/// DRBG from the four halves. This holds the central's side: its halves while it waits.
struct SecurityStartProcedure: Sendable {
    private(set) var state = LLProcedureState.idle
    /// The central's halves, kept until LL_CS_SEC_RSP brings the peripheral's.
    private(set) var centralHalves: CSSecurityHalves?

    var isBusy: Bool { centralHalves != nil }

    /// The central sends `halves` at `now`; returns the request to send.
    mutating func start(_ halves: CSSecurityHalves, at now: UInt64) -> LLCSSecReq {
        centralHalves = halves
        state = .awaitingResponse(since: now)
        return LLCSSecReq(halves)
    }

    /// LL_CS_SEC_RSP: the material both sides use, or nil when no request of ours waits.
    mutating func complete(_ rsp: LLCSSecRsp) -> CSSecurityMaterial? {
        guard let halves = centralHalves else { return nil }
        end()
        return CSSecurityMaterial(central: halves, peripheral: rsp.halves)
    }

    /// Refused by the peer or abandoned: returns whether a request of ours was waiting.
    @discardableResult
    mutating func end() -> Bool {
        defer {
            centralHalves = nil
            state = .idle
        }
        return centralHalves != nil
    }
}
