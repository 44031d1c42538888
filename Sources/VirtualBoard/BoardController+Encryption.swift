import BLEHost
import ReflectorFirmware

/// Link encryption as the two hosts drive it (Core 6.0 Vol 4 Part E §7.8.24–§7.8.26, Vol 6
/// Part B §5.1.3): the central's host starts it with the bond's key, the peripheral's host is
/// asked for its key; the link is encrypted only when the two agree.
extension BoardController {
    /// LE Enable Encryption (§7.8.24): Connection_Handle, Random_Number 8, EDIV 2, LTK 16.
    mutating func enableEncryption(_ op: UInt16, _ p: [UInt8]) {
        guard role == .initiator, connected, let command = try? LEEnableEncryption.decode(p) else {
            return status(op, connected ? .invalidHCICommandParameters : .unknownConnectionIdentifier)
        }
        status(op, .success)
        encryptionResult(command.longTermKey)
    }

    /// LE Long Term Key Request Reply (§7.8.25): Connection_Handle, LTK 16. Returns Status and
    /// Connection_Handle, whatever the status.
    mutating func longTermKeyReply(_ op: UInt16, _ p: [UInt8]) {
        guard role == .reflector, connected, let reply = try? LELongTermKeyRequestReply.decode(p) else {
            return complete(op, status: .commandDisallowed, handle: commandHandle(p))
        }
        complete(op, status: .success, handle: handle)
        encryptionResult(reply.longTermKey)
    }

    /// LE Long Term Key Request Negative Reply (§7.8.26): Connection_Handle. Returns Status and
    /// Connection_Handle; the central's encryption start fails. As before the codecs, the board
    /// takes it whatever its length.
    mutating func longTermKeyNegativeReply(_ op: UInt16, _ p: [UInt8]) {
        guard role == .reflector, connected else { return complete(op, status: .commandDisallowed, handle: commandHandle(p)) }
        complete(op, status: .success, handle: handle)
        encryptionResult(nil)
    }

    /// LE CS Security Enable runs on an encrypted link only [U: the spec's status for this case
    /// is not in the public sources; Insufficient Security (0x2F) names the cause]; on an
    /// encrypted link the CS controller takes it.
    mutating func csSecurityEnable(_ op: UInt16, _ packet: [UInt8]) {
        if connected && !encrypted { return status(op, .insufficientSecurity) }
        cs.handleCommand(packet)
    }

    /// The peer central starts encryption: LE Long Term Key Request (LE Meta 0x05) to the host,
    /// if it unmasked the subevent. A host that masked it cannot answer, so the start fails as
    /// a controller whose host has no key fails it (a negative reply).
    mutating func requestLongTermKey() {
        guard allows(leMeta: LESubeventCode.longTermKeyRequest) else { return encryptionResult(nil) }
        events.append(LELongTermKeyRequest(connectionHandle: handle).packet)
    }

    /// Encryption Change (§7.7.8) with the outcome; a key that does not match the bond's ends the link.
    mutating func encryptionResult(_ key: [UInt8]?) {
        let ok = key != nil && (bondLTK == nil || key == bondLTK)
        encrypted = ok
        if allows(event: HCIEventCode.encryptionChange) {
            events.append(EncryptionChange(status: ok ? .success : .pinOrKeyMissing, connectionHandle: handle, enabled: ok).packet)
        }
        if ok { actions.append(.encrypted) } else { teardown(reason: .authenticationFailure) }
    }

    /// The Connection_Handle a command names (its first two octets, even of a malformed
    /// command), for a refusal's return parameters; 0 if there are not two.
    func commandHandle(_ p: [UInt8]) -> UInt16 {
        var r = ByteReader(p)
        return (try? r.u16("Connection_Handle")) ?? 0
    }
}
