import BLEHost
import ReflectorFirmware

/// Advertising, scanning, connecting and disconnecting (Core 6.0 Vol 4 Part E §7.1.6, §7.8.9–
/// §7.8.13, §7.8.21, §7.8.66): the one connection to the emulated peer.
extension BoardController {
    /// LE Set Advertising Enable (§7.8.9). The emulated phone connects to an advertising reflector.
    /// A malformed command is answered with success as before, and leaves advertising off.
    mutating func setAdvertisingEnable(_ op: UInt16, _ p: [UInt8]) {
        advertising = (try? LESetAdvertisingEnable.decode(p))?.enable == true
        complete(op, status: .success)
        if advertising, role == .reflector, !connected, connectAt == nil { connectAt = now + Self.connectionDelay }
    }

    /// LE Set Scan Enable (§7.8.11): a scanning initiator hears the emulated reflector.
    /// A malformed command is answered with success as before, and leaves scanning off.
    mutating func setScanEnable(_ op: UInt16, _ p: [UInt8]) {
        scanning = (try? LESetScanEnable.decode(p))?.enable == true
        complete(op, status: .success)
    }

    /// LE Create Connection (§7.8.12) and LE Extended Create Connection (§7.8.66): Command
    /// Status, then Connection Complete once the emulated reflector answers. Only it is out
    /// there; another address never answers (until LE Create Connection Cancel).
    mutating func createConnection(_ op: UInt16, _ p: [UInt8]) {
        guard role == .initiator, !connected, connectAt == nil, !pendingUnknownConnect else { return status(op, .commandDisallowed) }
        let peer: UInt64?
        if op == HCIOpcode.leCreateConnection {
            peer = (try? LECreateConnection.decode(p))?.peerAddress
        } else {
            peer = (try? LEExtendedCreateConnection.decode(p))?.peerAddress
        }
        guard let address = peer else { return status(op, .invalidHCICommandParameters) }
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
            events.append(connectionComplete(status: .unknownConnectionIdentifier, handle: 0, central: true, peerAddress: 0, interval: 0, enhanced: enhanced))
        }
    }

    /// LE Read Remote Features (§7.8.21): Command Status, then the complete event.
    mutating func readRemoteFeatures(_ op: UInt16, _ p: [UInt8]) {
        guard connected, (try? LEReadRemoteFeatures.decode(p))?.connectionHandle == handle else { return status(op, .unknownConnectionIdentifier) }
        status(op, .success)
        if allows(leMeta: LESubeventCode.readRemoteFeaturesComplete) {
            events.append(LEReadRemoteFeaturesComplete(connectionHandle: handle, features: cs.leFeatures | Self.boardFeatures).packet)
        }
    }

    /// Disconnect (§7.1.6): Command Status, then Disconnection Complete with Connection
    /// Terminated By Local Host (0x16).
    mutating func disconnect(_ op: UInt16, _ p: [UInt8]) {
        guard connected, (try? Disconnect.decode(p)) != nil else { return status(op, .unknownConnectionIdentifier) }
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
            events.append(connectionComplete(handle: handle, central: role == .initiator, peerAddress: peerAddress,
                                             interval: cs.connection.interval, enhanced: enhanced))
        }
        actions.append(.connected)
        if role == .reflector { requestLongTermKey() }
    }

    /// LE Connection Complete (LE Meta 0x01, §7.7.65.1), or LE Enhanced Connection Complete v1
    /// (0x0A, §7.7.65.10) with zero resolvable private addresses when `enhanced`: a public peer
    /// address, no peripheral latency, a 4 s supervision timeout, 500 ppm central clock accuracy.
    func connectionComplete(status: HCIStatus = .success, handle: UInt16, central: Bool, peerAddress: UInt64, interval: UInt16,
                            enhanced: Bool) -> HCIPacket {
        let role: UInt8 = central ? 0 : 1
        if enhanced {
            return LEEnhancedConnectionComplete(status: status, connectionHandle: handle, role: role, peerAddress: peerAddress, interval: interval).packet
        }
        return LEConnectionComplete(status: status, connectionHandle: handle, role: role, peerAddress: peerAddress, interval: interval).packet
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
