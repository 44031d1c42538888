import BLEHost
import ReflectorFirmware

/// What reaches the board from the air, and the data path: ACL packets from the host become
/// LL data PDUs of at most the connection's effective length (start and continuation
/// fragments), acknowledged with Number Of Completed Packets; LL data PDUs from the peer become
/// ACL packets for the host (Core 6.0 Vol 4 Part E §5.4.2, §7.7.19; Vol 6 Part B §2.4, §4.5.10).
extension BoardController {
    /// A PDU from the other board's link layer, heard at `rssi` dBm.
    public mutating func receive(_ pdu: AirPDU, rssi: Int8 = -50) {
        switch pdu {
        case .advertisement(let ad): hear(ad, rssi: rssi)
        case .connect(let request): accept(request)
        case .silence: if link != nil, link?.peerSilentSince == nil { link?.peerSilentSince = now }
        case let .data(llid, payload, key):
            guard let link, link.peerSilentSince == nil else { return }
            // The MIC check: a PDU encrypted with another key, or encrypted where the clear was
            // expected, or in the clear once encryption is on (Vol 6 Part B §5.1.3.1).
            let passes = acceptsAnyKey ? (key == nil) == (link.encryption.rxKey == nil) : key == link.encryption.rxKey
            guard passes else {
                return teardown(reason: .connectionTerminatedMICFailure, silently: true)
            }
            if llid == AirPDU.control {
                receiveControl(payload)
            } else {
                // PB_Flag 10 (first, automatically flushable) for a start, 01 for a continuation.
                let boundary: UInt8 = llid == AirPDU.start ? 0b10 : 0b01
                if let packet = try? HCIPacket.acl(handle: handle, packetBoundary: boundary, data: payload) { events.append(packet) }
            }
        }
    }

    /// An LL control PDU from the peer: the board's own procedures here, CS and version to the CS controller.
    mutating func receiveControl(_ payload: [UInt8]) {
        guard let op = payload.first, LinkControlPDU.opcodes.contains(op) else { return cs.receiveFromPeer(payload) }
        guard let pdu = try? LinkControlPDU.decode(payload) else {
            // A known opcode with the wrong length: rejected (LL_UNKNOWN_RSP would claim it unknown).
            return send(.rejectExtended(opcode: op, error: .invalidLMPOrLLParameters))
        }
        switch pdu {
        case .terminate(let reason):
            teardown(reason: reason, silently: false)
        case .featureRequest(let remote), .peripheralFeatureRequest(let remote):
            _ = remote
            send(.featureResponse(localFeatures))
        case .featureResponse(let remote):
            guard link?.featureRequestSince != nil else { return }
            link?.featureRequestSince = nil
            leMeta(LESubeventCode.readRemoteFeaturesComplete, LEReadRemoteFeaturesComplete(connectionHandle: handle, features: remote).packet)
        case .lengthRequest(let remote):
            guard let local = link?.localLengths else { return }
            send(.lengthResponse(local))
            applyLengths(remote: remote)
        case .lengthResponse(let remote):
            guard link?.lengthUpdateSince != nil else { return }
            link?.lengthUpdateSince = nil
            applyLengths(remote: remote)
        case .rejectExtended(let rejected, let error):
            // The board's own procedure (encryption start); a reject of any other PDU is the CS
            // controller's (LL_CS_REQ refused by a reflector whose host has not allowed the role).
            guard rejected == Self.encryptionRequestOpcode else { return cs.receiveFromPeer(payload) }
            encryptionRejected(error)
        case .encryptionRequest, .encryptionResponse, .startEncryptionRequest, .startEncryptionResponse, .pauseEncryptionRequest,
             .pauseEncryptionResponse:
            receiveEncryption(pdu)
        }
    }

    /// LL_ENC_REQ's opcode, which LL_REJECT_EXT_IND names when the peripheral has no key.
    static let encryptionRequestOpcode: UInt8 = 0x03

    /// Sends one of the board's LL control PDUs on the link, encrypted when encryption is on.
    mutating func send(_ pdu: LinkControlPDU) {
        guard let link else { return }
        transmissions.append(.data(llid: AirPDU.control, payload: pdu.encode(), sessionKey: link.encryption.txKey))
    }

    // MARK: ACL

    /// An ACL data packet from the host: on the air in fragments of the effective length, then
    /// its buffer is free again (counted for Number Of Completed Packets). A packet for another
    /// handle, or with no link, is dropped as a controller drops it.
    public mutating func handleACL(_ packet: HCIPacket) {
        guard !awaitsReset, let link, let h = packet.aclHandle, h == handle, let boundary = packet.aclPacketBoundary else { return }
        let data = packet.parameters
        let size = Int(link.effectiveLengths.maxTxOctets)
        var offset = 0
        repeat {
            let end = min(data.count, offset + size)
            // PB_Flag 00 or 10 starts an L2CAP message; 01 continues one.
            let llid = offset == 0 && boundary != 0b01 ? AirPDU.start : AirPDU.continuation
            transmissions.append(.data(llid: llid, payload: Array(data[offset..<end]), sessionKey: link.encryption.txKey))
            offset = end
        } while offset < data.count
        completedPackets &+= 1
    }

    // MARK: Data length

    /// LE Set Data Length (§7.8.33): Status, Connection_Handle; the update runs on the link.
    mutating func setDataLength(_ op: UInt16, _ p: [UInt8]) {
        guard let c = try? LESetDataLength.decode(p) else { return complete(op, status: .invalidHCICommandParameters, handle: commandHandle(p)) }
        guard connected, c.connectionHandle == handle else { return complete(op, status: .unknownConnectionIdentifier, handle: c.connectionHandle) }
        guard (27...251).contains(c.txOctets), (328...17040).contains(c.txTime) else {
            return complete(op, status: .invalidHCICommandParameters, handle: handle)
        }
        link?.localLengths.maxTxOctets = c.txOctets
        link?.localLengths.maxTxTime = c.txTime
        complete(op, status: .success, handle: handle)
        startLengthUpdate()
    }

    /// LE Write Suggested Default Data Length (§7.8.35): the TX limits of the next connections.
    mutating func writeSuggestedDefaultDataLength(_ op: UInt16, _ p: [UInt8]) {
        var r = ByteReader(p)
        guard let octets = try? r.u16("Suggested_Max_TX_Octets"), let time = try? r.u16("Suggested_Max_TX_Time"), r.isAtEnd,
              (27...251).contains(octets), (328...17040).contains(time)
        else { return complete(op, status: .invalidHCICommandParameters) }
        suggestedTxOctets = octets
        suggestedTxTime = time
        complete(op, status: .success)
    }

    /// LE Read Suggested Default Data Length (§7.8.34).
    mutating func readSuggestedDefaultDataLength(_ op: UInt16) {
        var w = ByteWriter(capacity: 5)
        w.u8(HCIStatus.success.rawValue)
        w.u16(suggestedTxOctets)
        w.u16(suggestedTxTime)
        complete(op, w.bytes)
    }

    /// LL_LENGTH_REQ with this side's limits (§5.1.9), unless one is already out.
    mutating func startLengthUpdate() {
        guard let link, link.lengthUpdateSince == nil else { return }
        self.link?.lengthUpdateSince = now
        send(.lengthRequest(link.localLengths))
    }

    /// The peer's limits arrived: the effective lengths follow, and the host hears LE Data
    /// Length Change if they changed (§7.7.65.7).
    mutating func applyLengths(remote: DataLengths) {
        guard let link else { return }
        let effective = link.localLengths.effective(with: remote)
        guard effective != link.effectiveLengths else { return }
        self.link?.effectiveLengths = effective
        leMeta(LESubeventCode.dataLengthChange, LEDataLengthChange(connectionHandle: handle, maxTxOctets: effective.maxTxOctets, maxTxTime: effective.maxTxTime,
                                                                   maxRxOctets: effective.maxRxOctets, maxRxTime: effective.maxRxTime).packet)
    }
}
