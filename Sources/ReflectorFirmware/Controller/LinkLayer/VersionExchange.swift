/// The version exchange (Core 6.0 Vol 6 Part B §5.1.5): each side sends LL_VERSION_IND at most
/// once per connection. The side whose host asks (Read Remote Version Information) sends its own
/// and waits for the peer's under T_PRT; the other side answers with its own. Once the peer's
/// version is known, later requests are answered from it without another PDU.
struct VersionExchange: Sendable {
    private(set) var state = LLProcedureState.idle
    /// Whether this side's LL_VERSION_IND went out on this connection.
    private(set) var sent = false
    /// Whether the host waits for Read Remote Version Information Complete.
    private(set) var hostWaiting = false
    /// The peer's LL_VERSION_IND, once it arrived.
    private(set) var remote: LLVersionInd?

    /// What the controller does next: send its LL_VERSION_IND, report the peer's version to the host.
    struct Outcome: Sendable, Equatable {
        var sendOwn = false
        var report: LLVersionInd?
    }

    /// The host asked for the peer's version at `now`.
    mutating func hostRequest(at now: UInt64) -> Outcome {
        hostWaiting = true
        if let v = remote { return reported(v, sendOwn: false) }
        guard !sent else { return Outcome() }  // ours is out: the peer's answer is on its way
        sent = true
        state = .awaitingResponse(since: now)
        return Outcome(sendOwn: true)
    }

    /// The peer's LL_VERSION_IND: it ends our wait, or starts the exchange and is answered.
    mutating func receive(_ v: LLVersionInd) -> Outcome {
        remote = v
        state = .idle
        let answer = !sent
        sent = true
        guard hostWaiting else { return Outcome(sendOwn: answer) }
        return reported(v, sendOwn: answer)
    }

    /// HCI Reset: the host no longer waits. The exchange itself belongs to the connection: what
    /// it learnt stays, and a PDU already sent is still answered (or times out) on the link.
    mutating func forgetHost() { hostWaiting = false }

    private mutating func reported(_ v: LLVersionInd, sendOwn: Bool) -> Outcome {
        hostWaiting = false
        return Outcome(sendOwn: sendOwn, report: v)
    }
}
