import BLEHost

/// The GATT server (`ATTServer` over a database with GAP and the Ranging Service), fed the ATT
/// PDUs a client may send, on an encrypted link or not.
///
/// Input: records `tag | length (2 octets, LE) | octets`: each the octets of one PDU from the
/// client, the link encrypted when tag bit 0 is set.
///
/// Checks: every response decodes, fits the bearer's ATT_MTU, and answers its request (an
/// Error Response names the request's opcode); commands get no response; a value is never
/// given out on an unencrypted link when it needs encryption.
enum GATTServerTarget {
    static let target = FuzzTarget("gatt-server", "ATTServer with GAP and the Ranging Service: any client PDUs, encrypted or not",
                                   seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        var server = ATTServer(database: database())
        for (tag, octets) in input.records() {
            let encrypted = tag & 1 == 1
            let reply = server.receive(octets, encrypted: encrypted)
            guard let response = reply.response else { continue }
            let out = response.encode()
            require(out.count <= Int(server.mtu), "a \(out.count)-octet response on a \(server.mtu)-octet bearer")
            require((try? ATTPDU.decode(out)) == response, "a response that does not decode to itself")
            if let op = octets.first {
                require(op & 0x40 == 0, "a command was answered")
                if case let .errorResponse(requested, _, _) = response { require(requested == op, "an Error Response for 0x\(String(requested, radix: 16)) to 0x\(String(op, radix: 16))") }
            }
            if !encrypted, case .readResponse(let v) = response, v == secret { require(false, "an encrypted value read on an unencrypted link") }
        }
    }

    static let secret: [UInt8] = [0x01, 0x02, 0x03, 0x04]

    static func database() -> AttributeDatabase {
        var db = AttributeDatabase()
        db.addService(.uuid16(0x1800), [.init(uuid: .uuid16(0x2A00), properties: .read, value: Array("reflector".utf8))])
        db.addService(.uuid16(0x185B), [
            .init(uuid: .uuid16(0x2C14), properties: .read, value: secret, encrypted: true),
            .init(uuid: .uuid16(0x2C15), properties: [.notify, .indicate], value: [UInt8](repeating: 0x5A, count: 40), encrypted: true),
            .init(uuid: .uuid16(0x2C17), properties: [.writeWithoutResponse, .indicate], encrypted: true),
        ])
        return db
    }

    /// A client's discovery and use of the Ranging Service, unencrypted and encrypted.
    static func seeds() -> [[UInt8]] {
        let pdus: [ATTPDU] = [
            .exchangeMTURequest(clientMTU: 247), .readByGroupTypeRequest(start: 1, end: 0xFFFF, type: .primaryService),
            .findByTypeValueRequest(start: 1, end: 0xFFFF, type: 0x2800, value: [0x5B, 0x18]),
            .readByTypeRequest(start: 4, end: 12, type: .characteristic), .findInformationRequest(start: 9, end: 9),
            .readRequest(handle: 6), .writeRequest(handle: 9, value: [1, 0]), .writeCommand(handle: 11, value: [0]),
            .readBlobRequest(handle: 8, offset: 20), .confirmation,
        ]
        return [0, 1].map { tag in FuzzInput.records(pdus.map { (UInt8(tag), $0.encode()) }) }
    }
}
