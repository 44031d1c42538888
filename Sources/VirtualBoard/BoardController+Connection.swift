import ReflectorFirmware

/// Advertising, scanning, connecting and disconnecting (Core 6.0 Vol 4 Part E §7.1.6, §7.8.9–
/// §7.8.13, §7.8.21, §7.8.66): the one connection to the emulated peer.
extension BoardController {
    /// LE Set Advertising Enable (§7.8.9). The emulated phone connects to an advertising reflector.
    mutating func setAdvertisingEnable(_ op: UInt16, _ p: [UInt8]) {
        advertising = p.first == 1
        complete(op, status: .success)
        if advertising, role == .reflector, !connected, connectAt == nil { connectAt = now + Self.connectionDelay }
    }

    /// LE Set Scan Enable (§7.8.11): a scanning initiator hears the emulated reflector.
    mutating func setScanEnable(_ op: UInt16, _ p: [UInt8]) {
        scanning = p.first == 1
        complete(op, status: .success)
    }

    /// LE Create Connection (§7.8.12) and LE Extended Create Connection (§7.8.66): Command
    /// Status, then Connection Complete once the emulated reflector answers. Only it is out
    /// there; another address never answers (until LE Create Connection Cancel).
    mutating func createConnection(_ op: UInt16, _ p: [UInt8]) {
        guard role == .initiator, !connected, connectAt == nil, !pendingUnknownConnect else { return status(op, .commandDisallowed) }
        // Peer_Address follows LE_Scan_Interval, LE_Scan_Window, Initiator_Filter_Policy and
        // Peer_Address_Type (legacy), or Initiator_Filter_Policy, Own_Address_Type and
        // Peer_Address_Type (extended).
        let addressOffset = op == HCIOpcode.leCreateConnection ? 6 : 3
        var fields = ByteReader(p)
        guard (try? fields.skip(addressOffset, "Scan parameters and filter policy")) != nil,
              let address = try? fields.uint(6, "Peer_Address") else { return status(op, .invalidHCICommandParameters) }
        status(op, .success)
        if address == peerAddress { connectAt = now + Self.connectionDelay } else { pendingUnknownConnect = true }
    }

    /// LE Create Connection Cancel (§7.8.13): Command Complete, then Connection Complete with
    /// Unknown Connection Identifier (0x02) for the cancelled attempt.
    mutating func createConnectionCancel(_ op: UInt16) {
        guard connectAt != nil || pendingUnknownConnect else { return complete(op, status: .commandDisallowed) }
        connectAt = nil
        pendingUnknownConnect = false
        complete(op, status: .success)
        let enhanced = allows(leMeta: LESubeventCode.enhancedConnectionComplete)
        if enhanced || allows(leMeta: LESubeventCode.connectionComplete) {
            events.append(BoardEvents.connectionComplete(status: .unknownConnectionIdentifier, handle: 0, central: true, peerAddress: 0,
                                                         peerRandom: false, interval: 0, enhanced: enhanced))
        }
    }

    /// LE Read Remote Features (§7.8.21): Command Status, then the complete event.
    mutating func readRemoteFeatures(_ op: UInt16, _ p: [UInt8]) {
        var fields = ByteReader(p)
        guard connected, p.count == 2, (try? fields.u16("Connection_Handle")) == handle else { return status(op, .unknownConnectionIdentifier) }
        status(op, .success)
        if allows(leMeta: LESubeventCode.readRemoteFeaturesComplete) {
            events.append(BoardEvents.remoteFeaturesComplete(handle: handle, features: cs.leFeatures | Self.boardFeatures))
        }
    }

    /// Disconnect (§7.1.6): Command Status, then Disconnection Complete with Connection
    /// Terminated By Local Host (0x16).
    mutating func disconnect(_ op: UInt16, _ p: [UInt8]) {
        guard connected, p.count == 3 else { return status(op, .unknownConnectionIdentifier) }
        status(op, .success)
        teardown(reason: .connectionTerminatedByLocalHost)
    }

    /// The link comes up: Connection Complete (enhanced when the host unmasked it) and, on a
    /// reflector, the central's encryption start, which asks the host for the bond's key.
    mutating func establish() {
        connected = true
        advertising = false
        cs.connect(LinkConnection(handle: handle, isCentral: role == .initiator, interval: cs.connection.interval))
        let enhanced = allows(leMeta: LESubeventCode.enhancedConnectionComplete)
        if enhanced || allows(leMeta: LESubeventCode.connectionComplete) {
            events.append(BoardEvents.connectionComplete(handle: handle, central: role == .initiator, peerAddress: peerAddress,
                                                         peerRandom: false, interval: cs.connection.interval, enhanced: enhanced))
        }
        actions.append(.connected)
        if role == .reflector { requestLongTermKey() }
    }

    /// The connection ends (host Disconnect, a failed encryption, or the peer went away): the CS
    /// state of the connection goes, the host's masks stay, and the CS controller tells the host
    /// (Disconnection Complete with `reason`).
    mutating func teardown(reason: HCIStatus) {
        guard connected else { return }
        let masks = cs.masks
        cs.resetState()
        cs.masks = masks
        cs.loseConnection(reason: reason)
        linkWentDown()
    }

    /// The peer's controller lost the link and fell silent: this side's supervision timer
    /// expires (Connection Timeout, 0x08; Core 6.0 Vol 6 Part B §4.5.2).
    public mutating func peerFellSilent() {
        teardown(reason: .connectionTimeout)
    }

    /// The link is down (the CS controller has told the host): no connection, and the peer resets.
    mutating func linkWentDown() {
        connected = false
        encrypted = false
        cs.connection.handle = 0xFFFF
        actions.append(.disconnected)
    }
}
