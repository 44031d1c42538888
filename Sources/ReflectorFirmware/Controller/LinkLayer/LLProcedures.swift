/// The LL procedures of the connection, one value each with its own state (Core 6.0 Vol 6
/// Part B §5.1.5, §5.1.23–§5.1.28): what the controller waits for, what collides with a
/// procedure the peer starts (§5.3), and whether a wait has outlived T_PRT (§5.2).
struct LLProcedures: Sendable {
    var version = VersionExchange()
    var security = SecurityStartProcedure()
    /// The Channel Sounding capabilities exchange (Core 6.0 Vol 6 Part B §5.1.24): LE CS Read
    /// Remote Supported Capabilities sends LL_CS_CAPABILITIES_REQ with this side's capabilities,
    /// and the peer answers LL_CS_CAPABILITIES_RSP with its own; each side keeps the other's.
    /// Either side may start it, and two crossing requests are both answered. This holds the
    /// requesting side's wait.
    var capabilities = SingleRequestProcedure()
    /// The Channel Sounding mode-0 FAE table request (Core 6.0 Vol 6 Part B §5.1.25): LE CS Read
    /// Remote FAE Table sends LL_CS_FAE_REQ, and the peer answers LL_CS_FAE_RSP with its 72-entry
    /// table of frequency actuation errors (the initiator corrects mode-0 measurements with it).
    /// This holds the requesting side's wait.
    var faeTable = SingleRequestProcedure()
    var configuration = ConfigurationProcedure()
    var start = CSStartProcedure()
    var terminate = CSTerminateProcedure()

    /// Whether any procedure has waited T_PRT or longer at `time`.
    func hasTimedOut(at time: UInt64) -> Bool {
        version.state.hasTimedOut(at: time) || security.state.hasTimedOut(at: time)
            || capabilities.state.hasTimedOut(at: time) || faeTable.state.hasTimedOut(at: time)
            || configuration.state.hasTimedOut(at: time) || start.state.hasTimedOut(at: time)
            || terminate.state.hasTimedOut(at: time)
    }

    /// Whether this side's own procedure of `kind` waits for the peer.
    func isBusy(_ kind: CSProcedureKind) -> Bool {
        switch kind {
        case .configuration: return configuration.isBusy
        case .start: return start.isBusy
        case .terminate: return terminate.isBusy
        }
    }

    /// The collision code if the peer's new procedure of `kind` cannot run beside one of ours
    /// that waits (the same kind first, LL Procedure Collision); nil when it can.
    func collision(with kind: CSProcedureKind) -> HCIStatus? {
        if isBusy(kind) { return .llProcedureCollision }
        return busyCollision(.configuration, kind) ?? busyCollision(.start, kind) ?? busyCollision(.terminate, kind)
    }

    private func busyCollision(_ local: CSProcedureKind, _ remote: CSProcedureKind) -> HCIStatus? {
        isBusy(local) ? local.collisionCode(with: remote) : nil
    }

    /// The peripheral gives way to the central's procedure of `kind`: each of its own that
    /// collides with it stops waiting for an answer and waits only for the central's reject. (A
    /// configuration request keeps its request for the failure report and needs nothing more:
    /// the central never answers it.)
    mutating func yield(to kind: CSProcedureKind) {
        if start.isBusy, CSProcedureKind.start.collisionCode(with: kind) != nil { start.yield() }
        if terminate.isBusy, CSProcedureKind.terminate.collisionCode(with: kind) != nil { terminate.yield() }
    }

    /// HCI Reset: every wait ends; the version exchange keeps what the link learnt.
    mutating func abandon() {
        let version = version
        self = LLProcedures()
        self.version = version
        self.version.forgetHost()
    }
}
