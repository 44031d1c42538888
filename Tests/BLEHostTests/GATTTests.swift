import BLEHost
import Testing

/// The GATT server and client against each other over ATT PDUs: a database with GAP and the
/// Ranging Service as a reflector serves it, the client discovers it, reads with and without
/// encryption, subscribes and receives notifications and indications; and the server's answers
/// to what a client gets wrong.
@Suite struct GATTTests {
    static let ras = ATTUUID.uuid16(0x185B)

    /// GAP (device name) at 1–3; the Ranging Service from 4: RAS Features (read, encrypted),
    /// Real-time Ranging Data (notify, encrypted, with its CCCD), RAS Control Point (write
    /// without response, indicate, with its CCCD).
    static func database() -> (AttributeDatabase, [UInt16]) {
        var db = AttributeDatabase()
        db.addService(.uuid16(0x1800), [.init(uuid: .uuid16(0x2A00), properties: .read, value: Array("reflector".utf8))])
        let handles = db.addService(ras, [
            .init(uuid: .uuid16(0x2C14), properties: .read, value: [0x01, 0, 0, 0], encrypted: true),
            .init(uuid: .uuid16(0x2C15), properties: [.notify, .indicate], value: [UInt8](repeating: 0x5A, count: 40), encrypted: true),
            .init(uuid: .uuid16(0x2C17), properties: [.writeWithoutResponse, .indicate], encrypted: true),
        ])
        return (db, handles)
    }

    /// Runs the client's requests through the server until it has nothing more to send.
    static func run(_ client: inout GATTServiceClient, _ server: inout ATTServer, encrypted: Bool) -> [GATTServiceClient.Event] {
        var events: [GATTServiceClient.Event] = []
        while let pdu = client.nextPDU() {
            if let response = server.receive(pdu.encode(), encrypted: encrypted).response { events += client.receive(response) }
        }
        return events
    }

    @Test func clientDiscoversTheRangingService() throws {
        let (db, handles) = Self.database()
        var server = ATTServer(database: db)
        var client = GATTServiceClient(service: Self.ras, clientMTU: 247)
        let events = Self.run(&client, &server, encrypted: false)
        #expect(events.first == .mtu(247) && server.mtu == 247)
        let found = try #require(events.compactMap { if case .discovered(let c) = $0 { c } else { nil } }.first)
        #expect(found.map(\.uuid) == [.uuid16(0x2C14), .uuid16(0x2C15), .uuid16(0x2C17)])
        #expect(found.map(\.valueHandle) == handles && handles == [6, 8, 11])
        #expect(found.map(\.configurationHandle) == [nil, 9, 12])
        #expect(found[1].properties == [.notify, .indicate] && client.isDiscovered)
    }

    @Test func encryptionGuardsTheValues() {
        let (db, handles) = Self.database()
        var server = ATTServer(database: db)
        var client = GATTServiceClient(service: Self.ras)
        _ = Self.run(&client, &server, encrypted: false)
        client.read(handles[0])
        let refused = Self.run(&client, &server, encrypted: false)
        #expect(refused == [.failed(requestOpcode: 0x0A, handle: handles[0], .insufficientEncryption)])
        client.read(handles[0])
        let read = Self.run(&client, &server, encrypted: true)
        #expect(read == [.read(handle: handles[0], value: [0x01, 0, 0, 0])])
    }

    @Test func notificationsAndIndicationsReachTheClient() throws {
        let (db, handles) = Self.database()
        var server = ATTServer(database: db)
        var client = GATTServiceClient(service: Self.ras, clientMTU: 23)
        _ = Self.run(&client, &server, encrypted: true)
        #expect(server.notification(of: handles[1]) == nil, "not subscribed yet")
        let realTime = try #require(client.characteristics.first { $0.uuid == .uuid16(0x2C15) })
        let subscribing = client.subscribe(realTime)
        #expect(subscribing)
        let subscribed = Self.run(&client, &server, encrypted: true)
        #expect(subscribed == [.written(handle: 9)])
        // ATT_MTU 23: the 40-octet value goes out as its first 20.
        let note = try #require(server.notification(of: handles[1]))
        let noted = client.receive(note)
        #expect(noted == [.notification(handle: handles[1], value: [UInt8](repeating: 0x5A, count: 20))])
        let indicated = client.receive(.indication(handle: handles[2], value: [1]))
        #expect(indicated == [.indication(handle: handles[2], value: [1])])
        let confirmation = client.nextPDU()
        #expect(confirmation == .confirmation)
    }

    /// A server's answers to requests a client gets wrong, octet for octet.
    @Test func serverErrors() {
        var server = ATTServer(database: Self.database().0)
        func answer(_ bytes: [UInt8], encrypted: Bool = true) -> [UInt8]? { server.receive(bytes, encrypted: encrypted).response?.encode() }
        #expect(answer([0x0A, 0x40, 0x00]) == [0x01, 0x0A, 0x40, 0x00, 0x01], "read of a handle that does not exist: Invalid Handle")
        #expect(answer([0x12, 0x06, 0x00, 0x01]) == [0x01, 0x12, 0x06, 0x00, 0x03], "write to a read-only value: Write Not Permitted")
        #expect(answer([0x12, 0x09, 0x00, 0x01]) == [0x01, 0x12, 0x09, 0x00, 0x0D], "a CCCD value of one octet: Invalid Attribute Value Length")
        #expect(answer([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28]) == [0x01, 0x10, 0x01, 0x00, 0x10], "grouping by characteristic: Unsupported Group Type")
        #expect(answer([0x04, 0x05, 0x00, 0x04, 0x00]) == [0x01, 0x04, 0x05, 0x00, 0x01], "start after end: Invalid Handle")
        #expect(answer([0x08, 0x0D, 0x00, 0xFF, 0xFF, 0x03, 0x28]) == [0x01, 0x08, 0x0D, 0x00, 0x0A], "nothing past the last attribute: Attribute Not Found")
        #expect(answer([0x0C, 0x03, 0x00, 0x20, 0x00]) == [0x01, 0x0C, 0x03, 0x00, 0x07], "blob offset past the value: Invalid Offset")
        #expect(answer([0x20, 0x01]) == [0x01, 0x20, 0x00, 0x00, 0x06], "an opcode the server does not know: Request Not Supported")
        #expect(answer([0x0A, 0x01]) == [0x01, 0x0A, 0x00, 0x00, 0x04], "a truncated Read Request: Invalid PDU")
        #expect(answer([0x52, 0x40, 0x00, 0x01]) == nil, "commands are never answered")
        #expect(answer([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28]) == [0x11, 0x06, 0x01, 0x00, 0x03, 0x00, 0x00, 0x18, 0x04, 0x00, 0x0C, 0x00, 0x5B, 0x18],
                "Read By Group Type over primary services: both groups")
    }

    /// Read By Type and Read By Group Type pack as many entries as fit the ATT_MTU and not one
    /// octet more, at every MTU from 23 to 64: Opcode and Length, then the entries (Core 6.0
    /// Vol 3 Part F §3.4.4.2, §3.4.4.10). The `gatt-server` fuzz target found responses one
    /// octet over a 29-octet bearer (the Length octet was not counted).
    @Test func responsesFitTheMTUToTheOctet() throws {
        var db = AttributeDatabase()
        for k in 0..<6 {
            _ = db.addService(.uuid16(0x1800 + UInt16(k)), (0..<4).map { _ in
                AttributeDatabase.CharacteristicSpec(uuid: .uuid16(0xABCD), properties: .read, value: [UInt8](repeating: UInt8(k), count: 12))
            })
        }
        for mtu in 23...64 {
            var server = ATTServer(database: db)
            _ = server.receive([0x02, UInt8(mtu), 0x00], encrypted: false)
            #expect(Int(server.mtu) == mtu)
            let byType = try #require(server.receive([0x08, 0x01, 0x00, 0xFF, 0xFF, 0xCD, 0xAB], encrypted: false).response?.encode())
            #expect(byType.count <= mtu && byType[1] == 14 && (byType.count - 2) / 14 == min(24, (mtu - 2) / 14), "MTU \(mtu): \(byType.count) octets")
            let groups = try #require(server.receive([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28], encrypted: false).response?.encode())
            #expect(groups.count <= mtu && groups[1] == 6 && (groups.count - 2) / 6 == min(6, (mtu - 2) / 6), "MTU \(mtu): \(groups.count) octets")
        }
    }
}
