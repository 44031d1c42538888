import BLEHost

/// The Attribute Protocol PDU decoder (`ATTPDU`), fed any octets a peer may send on the ATT
/// channel.
///
/// Checks: a PDU that decodes encodes back to exactly its octets (every layout has one form).
enum ATTTarget {
    static let target = FuzzTarget("att", "ATTPDU: any octets on the ATT channel, decoded and re-encoded", seeds: seeds) { bytes in
        guard let pdu = try? ATTPDU.decode(bytes) else { return }
        require(pdu.encode() == bytes, "\(pdu) does not re-encode to its octets")
    }

    /// One PDU of each modelled opcode.
    static func seeds() -> [[UInt8]] {
        let u128 = ATTUUID.uuid128(Array(0..<16))
        let pdus: [ATTPDU] = [
            .errorResponse(requestOpcode: 0x0A, handle: 3, error: .insufficientEncryption), .exchangeMTURequest(clientMTU: 247),
            .exchangeMTUResponse(serverMTU: 517), .findInformationRequest(start: 1, end: 0xFFFF),
            .findInformationResponse([.init(handle: 3, type: .clientCharacteristicConfiguration)]), .findInformationResponse([.init(handle: 4, type: u128)]),
            .findByTypeValueRequest(start: 1, end: 0xFFFF, type: 0x2800, value: [0x5B, 0x18]), .findByTypeValueResponse([.init(start: 0x10, end: 0x1F)]),
            .readByTypeRequest(start: 1, end: 0xFFFF, type: .characteristic), .readByTypeResponse([.init(handle: 0x11, value: [0x12, 0x12, 0x00, 0x14, 0x2C])]),
            .readRequest(handle: 0x15), .readResponse([1, 0, 0, 0]), .readBlobRequest(handle: 0x16, offset: 22), .readBlobResponse([9, 9]),
            .readByGroupTypeRequest(start: 1, end: 0xFFFF, type: .primaryService), .readByGroupTypeResponse([.init(start: 0x10, end: 0x1F, value: [0x5B, 0x18])]),
            .writeRequest(handle: 0x13, value: [1, 0]), .writeResponse, .writeCommand(handle: 0x17, value: [0]),
            .notification(handle: 0x12, value: [0x03, 0x00, 0x00]), .indication(handle: 0x19, value: [1]), .confirmation,
        ]
        return pdus.map { $0.encode() }
    }
}
