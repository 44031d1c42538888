import BLEHost
import ReflectorFirmware
import Testing

/// The accessory's Ranging Service (`RASServer` on `ATTServer`) against the phone's
/// `RASClient`, PDU for PDU: a procedure's ranging data crosses whole in both modes (the
/// reassembled body is the one published), on demand one procedure at a time with Ready, Get,
/// Complete and ACK; an old procedure is overwritten (announced); the modes exclude each other
/// (0xFD); the Control Point refuses what it should; the ACK timeout releases a procedure.
@Suite struct RASServerTests {
    struct Link {
        var att: ATTServer
        var ras: RASServer
        var client: RASClient
        var events: [RASClient.Event] = []
        /// Server PDUs held back (a client that is not listening), when set.
        var holdsServerPDUs = false
        var held: [ATTPDU] = []

        init(realTime: Bool, prefersRealTime: Bool = true) {
            var db = AttributeDatabase()
            db.addService(.uuid16(0x1800), [.init(uuid: .uuid16(0x2A00), properties: .read, value: Array("accessory".utf8))])
            ras = RASServer(database: &db, realTime: realTime)
            att = ATTServer(database: db)
            client = RASClient(prefersRealTime: prefersRealTime)
        }

        /// Moves PDUs both ways until neither side has anything to send.
        mutating func settle(now: Double = 0, _ fromServer: [ATTPDU] = []) {
            var toClient = fromServer
            var rounds = 0
            while rounds < 10_000 {
                rounds += 1
                if holdsServerPDUs {
                    held += toClient
                    toClient = []
                }
                if !toClient.isEmpty {
                    events += client.receive(toClient.removeFirst())
                    continue
                }
                guard let pdu = client.nextPDU() else { return }
                // The ATT server with the service behind it, as the accessory runs them.
                toClient += att.receive(pdu.encode(), security: .encrypted, now: now, service: &ras)
            }
        }

        /// A Control Point write the ATT server took: the service's PDUs.
        mutating func controlPoint(_ value: [UInt8], now: Double = 0) -> [ATTPDU] {
            ras.didWrite(handle: ras.handles.controlPoint, value: value, in: &att, now: now)
        }

        mutating func publishUnheard(_ counter: UInt16, _ segments: [[UInt8]]) -> [ATTPDU] {
            ras.publish(counter: counter, segments: segments, server: &att)
        }

        mutating func publish(_ counter: UInt16, _ segments: [[UInt8]]) {
            settle(ras.publish(counter: counter, segments: segments, server: &att))
        }

        var segments: [[UInt8]] { events.compactMap { if case .segment(let s) = $0 { s } else { nil } } }
    }

    /// A procedure's body in segments for this MTU, and the body.
    static func procedure(_ counter: UInt16, length: Int, mtu: Int, firstCounter: UInt8 = 0) -> ([[UInt8]], [UInt8]) {
        let body = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(counter)) }
        return (RASSegmenter.segments(of: body, attMTU: mtu, firstCounter: firstCounter), body)
    }

    static func reassembled(_ segments: [[UInt8]]) throws -> [[UInt8]] {
        var r = RASReassembler()
        var bodies: [[UInt8]] = []
        for s in segments { if let b = try r.add(s) { bodies.append(b) } }
        return bodies
    }

    @Test func realTimeDeliversEachProcedureWhole() throws {
        var link = Link(realTime: true)
        link.settle()
        link.client.subscribe()
        link.settle()
        #expect(link.events == [.found(features: 1), .ready(.realTime)])
        let mtu = Int(link.att.mtu)
        #expect(mtu == 517)
        let (a, bodyA) = Self.procedure(1, length: 1_300, mtu: mtu)
        let (b, bodyB) = Self.procedure(2, length: 40, mtu: mtu, firstCounter: UInt8(a.count))
        link.publish(1, a)
        link.publish(2, b)
        #expect(try Self.reassembled(link.segments) == [bodyA, bodyB])
        #expect(a.count == 3 && a.allSatisfy { $0.count <= mtu - 4 })
    }

    @Test func onDemandServesEachProcedureAndIsAcknowledged() throws {
        var link = Link(realTime: false)
        link.settle()
        link.client.subscribe()
        link.settle()
        #expect(link.events == [.found(features: 0), .ready(.onDemand)])
        var bodies: [[UInt8]] = []
        for c in UInt16(5)..<8 {
            let (segments, body) = Self.procedure(c, length: 700, mtu: Int(link.att.mtu))
            bodies.append(body)
            link.publish(c, segments)
        }
        #expect(try Self.reassembled(link.segments) == bodies)
        // Acknowledged: a second Get for one finds nothing (No Records Found).
        let cp = link.ras.handles.controlPoint
        let again = link.controlPoint([0x00, 0x05, 0x00], now: 1)
        #expect(again == [.indication(handle: cp, value: [0x02, RASResponseCode.noRecordsFound.rawValue])])
        #expect(link.att.database.attribute(link.ras.handles.ready)?.value == [0x07, 0x00])
    }

    /// A client that does not fetch: after `kept` procedures the oldest is overwritten, announced
    /// with Ranging Data Overwritten; a Get for it then finds nothing.
    @Test func anUnfetchedProcedureIsOverwritten() {
        var link = Link(realTime: false)
        link.settle()
        link.client.subscribe()
        link.settle()
        link.holdsServerPDUs = true
        var pdus: [ATTPDU] = []
        for c in UInt16(1)...UInt16(RASServer.kept + 1) {
            pdus += link.publishUnheard(c, [[0x03, UInt8(c)]])
        }
        let overwritten = link.ras.handles.overwritten
        #expect(pdus.contains(.notification(handle: overwritten, value: [0x01, 0x00])))
        #expect(link.att.database.attribute(overwritten)?.value == [0x01, 0x00])
        let cp = link.ras.handles.controlPoint
        let refused = link.controlPoint([0x00, 0x01, 0x00])
        // Indications wait for confirmations: the refusal is queued behind the first. Confirm all.
        var all = refused
        for _ in 0..<8 { all += link.ras.didConfirm(in: link.att, now: 0) }
        #expect(all.contains(.indication(handle: cp, value: [0x02, RASResponseCode.noRecordsFound.rawValue])))
    }

    @Test func theModesExcludeEachOther() {
        var link = Link(realTime: true, prefersRealTime: false)
        link.settle()
        link.client.subscribe()
        link.settle()
        #expect(link.events.last == .ready(.onDemand))
        let cccd = link.ras.handles.realTime + 1
        let response = link.att.receive(ATTPDU.writeRequest(handle: cccd, value: [0x01, 0x00]).encode(), security: .encrypted, now: 0, service: &link.ras)
        #expect(response == [.errorResponse(requestOpcode: 0x12, handle: cccd, error: ATTErrorCode(rawValue: 0xFD))])
        #expect(link.att.database.attribute(cccd)?.value == [0x00, 0x00])  // refused before it was stored
        // A Control Point write from a client that does not take its indications: refused too.
        var fresh = Link(realTime: false)
        let cp = fresh.ras.handles.controlPoint
        let r2 = fresh.att.receive(ATTPDU.writeRequest(handle: cp, value: [0x00, 0x01, 0x00]).encode(), security: .encrypted, now: 0, service: &fresh.ras)
        #expect(r2 == [.errorResponse(requestOpcode: 0x12, handle: cp, error: ATTErrorCode(rawValue: 0xFD))])
        // The attribute's permissions come first: before encryption the same write is Insufficient Encryption.
        let r3 = fresh.att.receive(ATTPDU.writeRequest(handle: cp, value: [0x00, 0x01, 0x00]).encode(), security: .none, now: 0, service: &fresh.ras)
        #expect(r3 == [.errorResponse(requestOpcode: 0x12, handle: cp, error: .insufficientEncryption)])
        fresh.settle()
    }

    /// Control Point commands it does not carry out, and the ACK timeout.
    @Test func controlPointAnswersAndTheACKTimeout() {
        var link = Link(realTime: false)
        link.settle()
        link.client.subscribe()
        link.settle()
        let cp = link.ras.handles.controlPoint
        func answer(_ value: [UInt8], now: Double = 0) -> [ATTPDU] {
            var out = link.controlPoint(value, now: now)
            for _ in 0..<8 { out += link.ras.didConfirm(in: link.att, now: 0) }
            return out
        }
        #expect(answer([0x04, 0x01, 0x00]) == [.indication(handle: cp, value: [0x02, RASResponseCode.opcodeNotSupported.rawValue])])  // Set Filter
        #expect(answer([0x09]) == [.indication(handle: cp, value: [0x02, RASResponseCode.opcodeNotSupported.rawValue])])
        #expect(answer([0x00, 0x01]) == [.indication(handle: cp, value: [0x02, RASResponseCode.invalidParameter.rawValue])])  // Get, short
        #expect(answer([0x03]) == [.indication(handle: cp, value: [0x02, RASResponseCode.success.rawValue])])  // Abort
        // A procedure fetched but never acknowledged is released after 5 s.
        link.holdsServerPDUs = true
        link.publish(9, [[0x03, 0xAA]])
        let served = answer([0x00, 0x09, 0x00], now: 10)
        #expect(served.last == .indication(handle: cp, value: [0x00, 0x09, 0x00]))
        #expect(answer([0x00, 0x09, 0x00], now: 11).last == .indication(handle: cp, value: [0x02, RASResponseCode.serverBusy.rawValue]))
        var att = link.att  // `link` is captured by `answer`: one access at a time
        #expect(link.ras.tick(now: 15, in: &att).isEmpty)
        link.att = att
        #expect(answer([0x00, 0x09, 0x00], now: 16).last == .indication(handle: cp, value: [0x02, RASResponseCode.noRecordsFound.rawValue]))
    }

    /// One procedure at a time in the client's hands: a Ready waits while one is announced and
    /// not asked for, or served; the ACK, or the 5 s ACK timeout, lets the oldest kept one go.
    @Test func dataReadyWaitsWhileAProcedureIsInTheClientsHands() {
        var link = Link(realTime: false)
        link.settle()
        link.client.subscribe()
        link.settle()
        link.holdsServerPDUs = true
        let ready = link.ras.handles.ready
        func readies(_ pdus: [ATTPDU]) -> [[UInt8]] { pdus.compactMap { if case let .notification(h, v) = $0, h == ready { v } else { nil } } }
        #expect(readies(link.publishUnheard(1, [[0x03, 0x01]])) == [[0x01, 0x00]])
        // Announced, not asked for: 2 waits; the value reads as the latest all the same.
        #expect(readies(link.publishUnheard(2, [[0x03, 0x02]])).isEmpty)
        #expect(link.att.database.attribute(ready)?.value == [0x02, 0x00])
        // Get 1: served; 3 waits too. ACK 1: Ready 2 (not 3).
        _ = link.controlPoint([0x00, 0x01, 0x00], now: 1)
        #expect(readies(link.publishUnheard(3, [[0x03, 0x03]])).isEmpty)
        #expect(readies(link.controlPoint([0x01, 0x01, 0x00], now: 1)) == [[0x02, 0x00]])
        // Get 2, never acknowledged: the timeout releases it at 5 s, and Ready 3 goes then.
        _ = link.controlPoint([0x00, 0x02, 0x00], now: 2)
        var att = link.att
        #expect(link.ras.tick(now: 6.9, in: &att).isEmpty)
        #expect(readies(link.ras.tick(now: 7, in: &att)) == [[0x03, 0x00]])
        link.att = att
    }
}
