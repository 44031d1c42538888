import BLEHost
import ReflectorFirmware
import Testing

/// The phone's RAS client against this project's ATT server holding the Ranging Service as
/// nRF's ras_rrsp lays it out, with the test playing the server's RAS logic: which
/// configuration descriptors it writes in each mode, the Control Point commands octet for octet
/// (Get and ACK as Write Commands), the order on demand (one procedure at a time, the next Get
/// only after the ACK's Success), refusals, and segments relayed as they came.
@Suite struct RASClientTests {
    /// Value handles of RAS Features, Real-time, On-demand, Control Point, Ready, Overwritten;
    /// each notifying characteristic's CCCD is its value handle + 1.
    struct Server {
        var att: ATTServer
        let features, realTime, onDemand, controlPoint, ready, overwritten: UInt16
        /// What the client wrote: (handle, value), in order.
        var writes: [(UInt16, [UInt8])] = []

        init(realTime realTimeSupported: Bool) {
            var db = AttributeDatabase()
            db.addService(.uuid16(0x1800), [.init(uuid: .uuid16(0x2A00), properties: .read, value: Array("reflector".utf8))])
            let h = db.addService(.uuid16(0x185B), [
                .init(uuid: .uuid16(0x2C14), properties: .read, value: [realTimeSupported ? 0x01 : 0x00, 0, 0, 0], encrypted: true),
                .init(uuid: .uuid16(0x2C15), properties: [.notify, .indicate], encrypted: true),
                .init(uuid: .uuid16(0x2C16), properties: [.notify, .indicate], encrypted: true),
                .init(uuid: .uuid16(0x2C17), properties: [.writeWithoutResponse, .indicate], encrypted: true),
                .init(uuid: .uuid16(0x2C18), properties: [.read, .notify, .indicate], value: [0, 0], encrypted: true),
                .init(uuid: .uuid16(0x2C19), properties: [.read, .notify, .indicate], value: [0, 0], encrypted: true),
            ])
            att = ATTServer(database: db)
            (features, realTime, onDemand, controlPoint, ready, overwritten) = (h[0], h[1], h[2], h[3], h[4], h[5])
        }

        /// Runs the client's PDUs through the server until it has nothing to send; its events.
        mutating func run(_ client: inout RASClient) -> [RASClient.Event] {
            var events: [RASClient.Event] = []
            while let pdu = client.nextPDU() {
                let reply = att.receive(pdu.encode(), encrypted: true)
                if let w = reply.written { writes.append((w.handle, w.value)) }
                if let response = reply.response { events += client.receive(response) }
            }
            return events
        }

        /// The server sends `pdu` (a notification or indication); the client's events after it.
        mutating func send(_ pdu: ATTPDU, to client: inout RASClient) -> [RASClient.Event] {
            client.receive(pdu) + run(&client)
        }

        var controlPointWrites: [[UInt8]] { writes.filter { $0.0 == controlPoint }.map(\.1) }
        var configurationWrites: [UInt16: [UInt8]] {
            var out: [UInt16: [UInt8]] = [:]
            for (h, v) in writes where h != controlPoint { out[h] = v }
            return out
        }
    }

    /// Subscribes a fresh client: found, then ready in the server's mode.
    static func subscribed(_ server: inout Server) -> (RASClient, [RASClient.Event]) {
        var client = RASClient()
        var events = server.run(&client)
        client.subscribe()
        events += server.run(&client)
        return (client, events)
    }

    @Test func realTimeSubscribesToOneCharacteristicAndRelaysItsSegments() {
        var server = Server(realTime: true)
        var (client, events) = Self.subscribed(&server)
        #expect(events == [.found(features: 1), .ready(.realTime)])
        // Only Real-time Ranging Data's CCCD, notifications on.
        #expect(server.configurationWrites == [server.realTime + 1: [0x01, 0x00]])
        let segments: [[UInt8]] = [[0x01, 1, 2, 3], [0x06, 4, 5]]
        var relayed: [RASClient.Event] = []
        for s in segments { relayed += server.send(.notification(handle: server.realTime, value: s), to: &client) }
        // On-demand data is not this mode's: ignored.
        relayed += server.send(.notification(handle: server.onDemand, value: [0x03, 9]), to: &client)
        #expect(relayed == segments.map { .segment($0) })
        #expect(server.controlPointWrites.isEmpty)
    }

    @Test func onDemandFetchesEachProcedureInTurn() throws {
        var server = Server(realTime: false)
        var (client, events) = Self.subscribed(&server)
        #expect(events == [.found(features: 0), .ready(.onDemand)])
        // On-demand data and the two status characteristics notify; the Control Point indicates.
        #expect(server.configurationWrites == [server.onDemand + 1: [0x01, 0x00], server.controlPoint + 1: [0x02, 0x00],
                                               server.ready + 1: [0x01, 0x00], server.overwritten + 1: [0x01, 0x00]])
        // Ranging Data Ready 0x0105: Get Ranging Data (0x00, counter LE) as a Write Command.
        #expect(server.send(.notification(handle: server.ready, value: [0x05, 0x01]), to: &client).isEmpty)
        #expect(server.controlPointWrites == [[0x00, 0x05, 0x01]])
        // A second procedure is announced while the first is fetched: it waits.
        #expect(server.send(.notification(handle: server.ready, value: [0x06, 0x01]), to: &client).isEmpty)
        #expect(server.controlPointWrites.count == 1)
        // Success for the Get (an indication: confirmed), the segments, then Complete Ranging Data Response.
        #expect(server.send(.indication(handle: server.controlPoint, value: [0x02, 0x01]), to: &client).isEmpty)
        let data = server.send(.notification(handle: server.onDemand, value: [0x03, 0xAA, 0xBB]), to: &client)
        #expect(data == [.segment([0x03, 0xAA, 0xBB])])
        #expect(server.send(.indication(handle: server.controlPoint, value: [0x00, 0x05, 0x01]), to: &client).isEmpty)
        #expect(server.controlPointWrites.last == [0x01, 0x05, 0x01])  // ACK Ranging Data 0x0105
        // The ACK's Success: now the second procedure.
        #expect(server.send(.indication(handle: server.controlPoint, value: [0x02, 0x01]), to: &client).isEmpty)
        #expect(server.controlPointWrites.last == [0x00, 0x06, 0x01])
        // No Records Found for it: reported, and the client is free for the next.
        let refused = server.send(.indication(handle: server.controlPoint, value: [0x02, 0x08]), to: &client)
        #expect(refused == [.refused(rangingCounter: 0x0106, .noRecordsFound)])
        #expect(server.send(.notification(handle: server.overwritten, value: [0x07, 0x01]), to: &client) == [.overwritten(rangingCounter: 0x0107)])
        #expect(server.send(.notification(handle: server.ready, value: [0x08, 0x01]), to: &client).isEmpty)
        #expect(server.controlPointWrites.map(\.first) == [0x00, 0x01, 0x00, 0x00])
        #expect(server.controlPointWrites.last == [0x00, 0x08, 0x01])
    }

    @Test func aClientThatPrefersOnDemandIgnoresRealTime() {
        var server = Server(realTime: true)
        var client = RASClient(prefersRealTime: false)
        _ = server.run(&client)
        client.subscribe()
        #expect(server.run(&client) == [.ready(.onDemand)])
        #expect(server.configurationWrites[server.realTime + 1] == nil)
    }

    @Test func aPeerWithoutTheServiceIsNamed() {
        var db = AttributeDatabase()
        db.addService(.uuid16(0x1800), [.init(uuid: .uuid16(0x2A00), properties: .read, value: Array("x".utf8))])
        var att = ATTServer(database: db)
        var client = RASClient()
        var events: [RASClient.Event] = []
        while let pdu = client.nextPDU() {
            if let r = att.receive(pdu.encode(), encrypted: true).response { events += client.receive(r) }
        }
        #expect(events == [.unavailable("the reflector has no Ranging Service (0x185B)")])
    }

    /// Before encryption, RAS Features is refused (Insufficient Encryption): named with its code.
    @Test func refusedFeaturesAreNamed() {
        var server = Server(realTime: true)
        var client = RASClient()
        var events: [RASClient.Event] = []
        while let pdu = client.nextPDU() {
            if let r = server.att.receive(pdu.encode(), encrypted: false).response { events += client.receive(r) }
        }
        #expect(events == [.unavailable("reading RAS Features failed: Insufficient Encryption (ATT error 0x0F)")])
    }
}
