/// The connection's life: lost when a procedure's response never comes (Core 6.0 Vol 6 Part B
/// §5.2) or when whoever owns the controller sees the link go, brought up again with
/// `connect(_:)`. Everything the CS procedures agreed belongs to the connection and goes with it;
/// what the host set for the controller (event masks, host features) stays.
extension CSController {
    /// T_PRT expired: the connection is lost with reason LL Response Timeout (0x22).
    mutating func responseTimedOut() {
        loseConnection(reason: .llResponseTimeout)
    }

    /// The connection is gone: the host hears Disconnection Complete with `reason` (if it
    /// unmasked the event), every LL procedure stops waiting, the CS procedures stop with no
    /// further results, and the connection's CS state (security, configurations, procedure
    /// parameters, default settings, the peer's capabilities and FAE table) is dropped. Nothing
    /// more goes to the peer, and PDUs from it are ignored until `connect(_:)`.
    public mutating func loseConnection(reason: HCIStatus) {
        guard isConnected else { return }
        connectionLoss = reason
        forgetConnectionState()
        pdus.removeAll(keepingCapacity: true)
        guard masks.allows(event: DisconnectionComplete.eventCode) else { return }
        send(DisconnectionComplete(connectionHandle: connection.handle, reason: reason).packet)
    }

    /// A new connection comes up: CS starts afresh on it, from the controller's clock.
    public mutating func connect(_ connection: LinkConnection) {
        self.connection = connection
        self.connection.eventCounter = UInt16(truncatingIfNeeded: now / UInt64(connection.intervalMicroseconds))
        connectionLoss = nil
        forgetConnectionState()
    }

    /// Drops what belongs to the connection (not the host's settings for the controller).
    mutating func forgetConnectionState() {
        llProcedures = LLProcedures()
        run = nil
        planner = nil
        drbg = nil
        lastProcedureCounter = nil
        remoteCapabilities = nil
        remoteFAETable = nil
        defaultSettings = DefaultSettings()
        configurations = [CSConfiguration?](repeating: nil, count: 4)
        procedureParameters = [ProcedureParameters?](repeating: nil, count: 4)
    }
}
