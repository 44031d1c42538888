import BLEHost
import ReflectorFirmware

/// Link encryption as a controller runs it (Core 6.0 Vol 4 Part E §7.8.24–§7.8.26, §7.7.8,
/// §7.7.39; Vol 6 Part B §5.1.3 encryption start, §5.1.4 encryption pause): the central's host
/// gives the key with LE Enable Encryption, the peripheral's host is asked for its key (LE Long
/// Term Key Request). Each side derives the session key from its own LTK and both halves of
/// the session key diversifier, so the link is encrypted only when the two keys agree; when
/// they do not, the peripheral's MIC check fails on the central's first encrypted PDU and it
/// drops the link (MIC Failure, 0x3D), and the central's supervision timer then ends its side.
extension BoardController {
    /// LE Enable Encryption (§7.8.24), central only: starts encryption, or on an encrypted link
    /// pauses it first and refreshes the key.
    mutating func enableEncryption(_ op: UInt16, _ p: [UInt8]) {
        guard let c = try? LEEnableEncryption.decode(p) else { return status(op, .invalidHCICommandParameters) }
        guard let link, c.connectionHandle == handle else { return status(op, .unknownConnectionIdentifier) }
        guard link.isCentral, link.encryption.phase == .off || link.encryption.phase == .on else { return status(op, .commandDisallowed) }
        status(op, .success)
        self.link?.encryption.longTermKey = c.longTermKey
        self.link?.encryption.rand = c.randomNumber
        self.link?.encryption.ediv = c.encryptedDiversifier
        if link.encryption.phase == .on {
            self.link?.encryption.phase = .pausing
            self.link?.encryption.refreshing = true
            self.link?.encryption.awaitingSince = now
            send(.pauseEncryptionRequest)
        } else {
            startEncryption()
        }
    }

    /// The central's LL_ENC_REQ with its half of the diversifier (SKDm) and IV.
    mutating func startEncryption() {
        guard let e = link?.encryption else { return }
        let skdm = random.next()
        link?.encryption.skdm = skdm
        link?.encryption.phase = .starting
        link?.encryption.awaitingSince = now
        send(.encryptionRequest(rand: e.rand, ediv: e.ediv, skdm: skdm, ivm: UInt32(truncatingIfNeeded: random.next())))
    }

    /// LE Long Term Key Request Reply (§7.8.25): Status and Connection_Handle; the peripheral
    /// derives its session key and sends LL_START_ENC_REQ, expecting encrypted PDUs from then on.
    mutating func longTermKeyReply(_ op: UInt16, _ p: [UInt8]) {
        guard let reply = try? LELongTermKeyRequestReply.decode(p) else {
            return complete(op, status: .invalidHCICommandParameters, handle: commandHandle(p))
        }
        guard let link, reply.connectionHandle == handle, !link.isCentral, link.encryption.phase == .starting, link.encryption.longTermKey == nil else {
            return complete(op, status: .commandDisallowed, handle: reply.connectionHandle)
        }
        complete(op, status: .success, handle: handle)
        let key = sessionKey(reply.longTermKey, link.encryption)
        self.link?.encryption.longTermKey = reply.longTermKey
        self.link?.encryption.rxKey = key
        self.link?.encryption.awaitingSince = now
        send(.startEncryptionRequest)
    }

    /// LE Long Term Key Request Negative Reply (§7.8.26): the peripheral has no key; it rejects
    /// the central's LL_ENC_REQ with PIN or Key Missing (0x06), and the link stays up unencrypted.
    mutating func longTermKeyNegativeReply(_ op: UInt16, _ p: [UInt8]) {
        let h = commandHandle(p)
        guard p.count == 2, let link, h == handle, !link.isCentral, link.encryption.phase == .starting, link.encryption.longTermKey == nil else {
            return complete(op, status: p.count == 2 ? .commandDisallowed : .invalidHCICommandParameters, handle: h)
        }
        complete(op, status: .success, handle: handle)
        self.link?.encryption = LinkEncryption()
        send(.rejectExtended(opcode: Self.encryptionRequestOpcode, error: .pinOrKeyMissing))
    }

    /// The encryption procedures' PDUs from the peer.
    mutating func receiveEncryption(_ pdu: LinkControlPDU) {
        guard let link else { return }
        var e = link.encryption
        switch (pdu, link.isCentral) {
        case let (.encryptionRequest(rand, ediv, skdm, _), false):
            // Peripheral: answer with SKDs, then ask the host for the key.
            guard e.phase == .off || (e.phase == .pausing && e.txKey == nil) else { return }
            e = LinkEncryption(phase: .starting, rand: rand, ediv: ediv, skdm: skdm, skds: random.next(), refreshing: e.refreshing)
            self.link?.encryption = e
            send(.encryptionResponse(skds: e.skds, ivs: UInt32(truncatingIfNeeded: random.next())))
            if allows(leMeta: LESubeventCode.longTermKeyRequest) {
                events.append(LELongTermKeyRequest(connectionHandle: handle, randomNumber: rand, encryptedDiversifier: ediv).packet)
            } else {
                // A host that masked the request cannot answer: the controller rejects as for a negative reply.
                self.link?.encryption = LinkEncryption()
                send(.rejectExtended(opcode: Self.encryptionRequestOpcode, error: .pinOrKeyMissing))
            }
        case let (.encryptionResponse(skds, _), true):
            guard e.phase == .starting, e.longTermKey != nil else { return }
            e.skds = skds
            self.link?.encryption = e
        case (.startEncryptionRequest, true):
            // Central: from now on both directions are encrypted.
            guard e.phase == .starting, let ltk = e.longTermKey else { return }
            let key = sessionKey(ltk, e)
            self.link?.encryption.txKey = key
            self.link?.encryption.rxKey = key
            send(.startEncryptionResponse)
        case (.startEncryptionResponse, false):
            // Peripheral: the central's encrypted response passed the MIC check.
            guard e.phase == .starting, let rx = e.rxKey else { return }
            self.link?.encryption.txKey = rx
            self.link?.encryption.phase = .on
            send(.startEncryptionResponse)
            encryptionChanged(refresh: e.refreshing)
        case (.startEncryptionResponse, true):
            guard e.phase == .starting else { return }
            self.link?.encryption.phase = .on
            encryptionChanged(refresh: e.refreshing)
        case (.pauseEncryptionRequest, false):
            // Peripheral: answer encrypted, then expect the central's response in the clear.
            guard e.phase == .on else { return }
            self.link?.encryption.phase = .pausing
            self.link?.encryption.refreshing = true
            send(.pauseEncryptionResponse)
            self.link?.encryption.txKey = nil
            self.link?.encryption.rxKey = nil
        case (.pauseEncryptionResponse, true):
            // Central: answer in the clear, then start again with the host's key.
            guard e.phase == .pausing else { return }
            self.link?.encryption.txKey = nil
            self.link?.encryption.rxKey = nil
            send(.pauseEncryptionResponse)
            startEncryption()
        case (.pauseEncryptionResponse, false):
            // Peripheral: the pause is complete; the central's LL_ENC_REQ follows.
            break
        default:
            // A PDU of the other role's side of the procedure: not expected here.
            break
        }
    }

    /// The peripheral rejected LL_ENC_REQ (negative reply, or a host that could not answer):
    /// Encryption Change with its error (Encryption_Enabled 0), the link stays as it was.
    mutating func encryptionRejected(_ error: HCIStatus) {
        guard let link, link.isCentral, link.encryption.phase == .starting else { return }
        let refreshing = link.encryption.refreshing
        self.link?.encryption = LinkEncryption()
        if refreshing {
            // The key refresh failed after the pause: the link cannot go on unencrypted.
            return teardown(reason: error, silently: false)
        }
        if allows(event: HCIEventCode.encryptionChange) {
            events.append(EncryptionChange(status: error, connectionHandle: handle, enabled: false).packet)
        }
    }

    /// Encryption is on: Encryption Change (§7.7.8), or after a pause Encryption Key Refresh Complete (§7.7.39).
    mutating func encryptionChanged(refresh: Bool) {
        link?.encryption.refreshing = false
        link?.encryption.awaitingSince = nil
        if refresh {
            if allows(event: EncryptionKeyRefreshComplete.eventCode) {
                events.append(EncryptionKeyRefreshComplete(status: .success, connectionHandle: handle).packet)
            }
        } else if allows(event: HCIEventCode.encryptionChange) {
            events.append(EncryptionChange(status: .success, connectionHandle: handle, enabled: true).packet)
        }
    }

    /// SK = e(LTK, SKD), SKD = SKDm ‖ SKDs (SKDm the least significant half; Vol 6 Part B
    /// §5.1.3.1, Vol 3 Part H §2.2.1 for e); its first eight octets as the air's fingerprint.
    func sessionKey(_ ltk: [UInt8], _ e: LinkEncryption) -> UInt64 {
        // HCI carries the LTK least significant octet first; the block holds it most significant first.
        // (The HCI codecs always give 16 octets.)
        let k = ltk.count == 16 ? ltk : [UInt8](repeating: 0, count: 16)
        var high: UInt64 = 0, low: UInt64 = 0
        for i in 0..<8 {
            high = high << 8 | UInt64(k[15 - i])
            low = low << 8 | UInt64(k[7 - i])
        }
        return AES128.encrypt(key: Block128(high: high, low: low), Block128(high: e.skds, low: e.skdm)).high
    }

    /// LE CS Security Enable runs on an encrypted link only [U: the spec's status for this case
    /// is not in the public sources; Insufficient Security (0x2F) names the cause]; on an
    /// encrypted link the CS controller takes it.
    mutating func csSecurityEnable(_ op: UInt16, _ packet: [UInt8]) {
        if connected && !encrypted { return status(op, .insufficientSecurity) }
        cs.handleCommand(packet)
    }

    /// The Connection_Handle a command names (its first two octets, even of a malformed
    /// command), for a refusal's return parameters; 0 if there are not two.
    func commandHandle(_ p: [UInt8]) -> UInt16 {
        var r = ByteReader(p)
        return (try? r.u16("Connection_Handle")) ?? 0
    }
}
