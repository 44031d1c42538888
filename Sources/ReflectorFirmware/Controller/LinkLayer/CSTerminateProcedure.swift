/// The Channel Sounding procedure repeat termination procedure (Core 6.0 Vol 6 Part B §5.1.28):
/// LE CS Procedure Enable with Enable = 0 sends LL_CS_TERMINATE_REQ for the running
/// configuration; the peer stops its procedures and answers LL_CS_TERMINATE_RSP, and the
/// requesting side stops on the answer. (This controller's codecs carry no separate IND.)
///
/// Two crossing requests collide (§5.3): the central rejects the peripheral's and goes on; the
/// peripheral answers the central's, which stops the procedures its host asked to stop, so its
/// own request only waits for the reject and then ends without another report.
struct CSTerminateProcedure: Sendable {
    private(set) var state = LLProcedureState.idle
    /// The configuration whose procedures this side asked to stop, until the answer.
    private(set) var configID: UInt8?
    /// Whether this peripheral's request gave way to the central's and waits for the reject.
    private(set) var yielded = false

    var isBusy: Bool { configID != nil }

    /// LL_CS_TERMINATE_REQ for `configID` went out at `now`.
    mutating func start(configID: UInt8, at now: UInt64) {
        self.configID = configID
        state = .awaitingResponse(since: now)
    }

    /// The peripheral gives way to the central's request.
    mutating func yield() {
        guard configID != nil else { return }
        end()
        yielded = true
    }

    /// LL_CS_TERMINATE_RSP: whether it answers our request (then the procedure ends).
    mutating func responded(configID: UInt8) -> Bool {
        guard self.configID == configID else { return false }
        end()
        return true
    }

    /// The peer rejected our request: the configuration to report the failure for, nil when no
    /// request waited or it had given way (its outcome is already reported).
    mutating func refused() -> UInt8? {
        if yielded {
            yielded = false
            return nil
        }
        defer { end() }
        return configID
    }

    private mutating func end() {
        configID = nil
        state = .idle
    }
}
