@testable import BLEHost
import ReflectorFirmware
import Testing

/// Our accessory's Ranging Service (the whole `AccessoryHost`, over HCI ACL) against a client
/// with Android's `ras_client.cc` habits (`AndroidRASClient`), on simulated time: the set-up a
/// Pixel does (MTU 247, 4-octet RAS Features, the Control Point's indications in both modes),
/// each mode's exchange octet for octet, segments cut for ATT_MTU 247 (RAS 1.0 §3.2.1.1), and
/// the client's timers (5 s to the first segment, 1 s between segments, 5 s to Data Ready and
/// per Get) never running out against our server when procedures come.
@Suite struct AndroidRASClientTests {
    typealias Bench = RASBench

    static func le(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    /// Connected and encrypted: the client's whole set-up, up to its subscriptions.
    static func setUp(realTime: Bool) -> (Bench, AndroidRASClient) {
        var bench = Bench(realTime: realTime)
        var phone = AndroidRASClient()
        bench.pump(&phone)
        return (bench, phone)
    }

    /// 50 steps of one antenna path: a 512-octet body (RAS 1.0 §3.2.1.2: Ranging Header 4,
    /// Subevent Header 8, each step its mode octet and 9 octets of mode-2 data).
    static let fiftySteps = 50

    @Test(arguments: [true, false]) func setUpAsAndroidDoesIt(realTime: Bool) throws {
        var (bench, phone) = Self.setUp(realTime: realTime)
        let h = bench.host.rasHandles
        // MTU 247 asked, once, after the service search; the server offers 517, so 247 it is.
        #expect(bench.sent.filter { $0.first == 0x02 } == [[0x02, 0xF7, 0x00]])
        #expect(bench.received.map(\.pdu).contains([0x03, 0x05, 0x02]))
        #expect(phone.events.first == .mtu(247))
        #expect(bench.host.nextACL().isEmpty)
        // The Ranging Service holds the six RAS 1.0 characteristics only: no vendor-specific
        // one to read, so the one read is RAS Features, whose 4 octets say the mode.
        #expect(phone.characteristics.count == 6)
        #expect(phone.reads == [h.features])
        let featuresRead = try #require(bench.received.first { $0.pdu.first == 0x0B && $0.pdu.count == 5 })
        #expect(featuresRead.pdu == [0x0B, realTime ? 0x01 : 0x00, 0x00, 0x00, 0x00])
        #expect(phone.events.contains(.features(realTime ? 1 : 0)))
        #expect(!phone.events.contains { if case .invalidFeaturesLength = $0 { true } else { false } })
        // The Control Point's indications first (it cannot notify), then the mode's data with notifications.
        var expected: [AndroidRASClient.Write] = [.init(time: 0, handle: h.controlPoint + 1, value: [0x02, 0x00], command: false)]
        let data: [UInt16] = realTime ? [h.realTime] : [h.onDemand, h.ready, h.overwritten]
        expected += data.map { .init(time: 0, handle: $0 + 1, value: [0x01, 0x00], command: false) }
        #expect(phone.writes.map { [$0.handle] + [UInt16($0.value[0]), UInt16($0.value[1])] } == expected.map { [$0.handle] + [UInt16($0.value[0]), UInt16($0.value[1])] })
        #expect(phone.writes.allSatisfy { !$0.command })
        // Every one accepted: a Write Response each, no Error Response anywhere (no 0xFD for the mode).
        #expect(bench.received.filter { $0.pdu == [0x13] }.count == expected.count)
        #expect(!bench.received.contains { $0.pdu.first == 0x01 && $0.pdu[1] != 0x10 && $0.pdu[1] != 0x08 && $0.pdu[1] != 0x04 })
        #expect(phone.mode == (realTime ? .realTime : .onDemand))
        #expect(phone.timeoutType == (realTime ? .firstSegment : .rangingDataReady))
    }

    /// Real time: a procedure 0.5 s after the subscription goes out as three notifications of
    /// 243, 243 and 29 octets (ATT_MTU − 4 at most, nRF's bound), headers 0x01, 0x04, 0x0A
    /// (first/counter 0, counter 1, last/counter 2); the client hands each to the HAL, its
    /// timers are met, and the next procedure's segment counters go on from 3.
    @Test func realTimeSegmentsAtMTU247() throws {
        var (bench, phone) = Self.setUp(realTime: true)
        // The 5 s timer runs from when the features came (ras_client.cc sets it as it subscribes).
        let deadline = try #require(phone.nextDeadline)
        let h = bench.host.rasHandles.realTime
        bench.advance(&phone, to: deadline - 4.5)
        bench.clearLog()
        let p = Bench.procedure(counter: 7, steps: Self.fiftySteps)
        let body = RangingData(selectedTxPower: 0, results: p.subevents).encode()
        #expect(body.count == 512)
        bench.procedure(p)
        bench.pump(&phone)
        let segments = phone.events.compactMap { if case .remoteData(let s) = $0 { s } else { nil } }
        #expect(segments.map(\.count) == [243, 243, 29])
        #expect(segments.map { $0[0] } == [0x01, 0x04, 0x0A])
        #expect(segments.flatMap { $0.dropFirst() } == body)
        #expect(bench.received.map(\.pdu) == segments.map { [0x1B] + Self.le(h) + $0 })
        #expect(bench.received.allSatisfy { $0.pdu.count <= 247 })
        // The first came before the 5 s timer, the rest within 1 s of the previous one.
        #expect(bench.received[0].time < deadline)
        #expect(zip(bench.received.dropFirst(), bench.received).allSatisfy { $0.time - $1.time < 1 })
        // The last segment leaves no timer running: a quiet minute later the client is still subscribed.
        #expect(phone.pendingDeadlines.isEmpty)
        bench.advance(&phone, to: bench.now + 60)
        #expect(!phone.events.contains { if case .timeout = $0 { true } else { false } })
        bench.procedure(Bench.procedure(counter: 8, steps: 10))
        bench.pump(&phone)
        #expect(phone.events.compactMap { if case .remoteData(let s) = $0 { s[0] } else { nil } }.suffix(1) == [0x03 | 3 << 2])
    }

    /// No ranging data within 5 s of the subscription: the client writes the Real-time CCCD to
    /// 0x0000 (a Write Request), our server takes it, and sends nothing of later procedures.
    @Test func realTimeFirstSegmentTimeout() throws {
        var (bench, phone) = Self.setUp(realTime: true)
        let deadline = try #require(phone.nextDeadline)
        let featuresRead = try #require(bench.received.first { $0.pdu.first == 0x0B && $0.pdu.count == 5 })
        #expect(deadline == featuresRead.time + 5)
        let cccd = bench.host.rasHandles.realTime + 1
        bench.advance(&phone, to: deadline - 0.01)
        #expect(phone.writes.count == 2 && !phone.events.contains(.timeout(.firstSegment, .realTime)))
        bench.advance(&phone, to: deadline)
        bench.pump(&phone)
        #expect(phone.events.last == .timeout(.firstSegment, .realTime))
        let off = try #require(phone.writes.last)
        #expect(off.handle == cccd && off.value == [0x00, 0x00] && !off.command && off.time == deadline)
        #expect(bench.received.last?.pdu == [0x13])
        bench.clearLog()
        bench.procedure(Bench.procedure(counter: 1, steps: 10))
        bench.pump(&phone)
        #expect(bench.received.isEmpty)
    }

    /// A slow link (one PDU every 0.3 s, far slower than any connection interval): the
    /// segments of a long procedure still come within 1 s of each other, as our server sends
    /// them all at once when the procedure ends.
    @Test func realTimeFollowingSegmentsOnASlowLink() throws {
        var bench = Bench(realTime: true, pduTime: 0.3)
        var phone = AndroidRASClient()
        bench.pump(&phone)
        bench.clearLog()
        bench.procedure(Bench.procedure(counter: 1, subevents: 4, steps: 40))
        bench.pump(&phone)
        let segments = phone.events.compactMap { if case .remoteData(let s) = $0 { s } else { nil } }
        // 4 + 4 × (8 + 40 × 10) = 1636 octets: six full segments and one of 1 + 184.
        #expect(segments.map(\.count) == [243, 243, 243, 243, 243, 243, 185])
        #expect(!phone.events.contains { if case .timeout = $0 { true } else { false } })
        #expect(phone.pendingDeadlines.isEmpty && phone.mode == .realTime)
    }

    /// On demand: Data Ready (2 octets, the counter) → Get Ranging Data as a Write Command
    /// `00 lo hi` → Success (an indication), the segments as notifications of On-demand Ranging
    /// Data, Complete Ranging Data Response `00 lo hi` (after the Success's confirmation) →
    /// ACK `01 lo hi` → Success. Octet for octet, and no timer runs out.
    @Test func onDemandExchange() throws {
        var (bench, phone) = Self.setUp(realTime: false)
        let h = bench.host.rasHandles
        bench.advance(&phone, to: 1)
        bench.clearLog()
        let p = Bench.procedure(counter: 0x0123, steps: Self.fiftySteps)
        let body = RangingData(selectedTxPower: 0, results: p.subevents).encode()
        bench.procedure(p)
        bench.pump(&phone)
        let cp = Self.le(h.controlPoint)
        let segments = RASSegmenter.segments(of: body, attMTU: 247)
        let expectedIn: [[UInt8]] = [[0x1B] + Self.le(h.ready) + [0x23, 0x01],
                                     [0x1D] + cp + [0x02, 0x01]]
            + segments.map { [0x1B] + Self.le(h.onDemand) + $0 }
            + [[0x1D] + cp + [0x00, 0x23, 0x01], [0x1D] + cp + [0x02, 0x01]]
        #expect(bench.received.map(\.pdu) == expectedIn)
        #expect(segments.map(\.count) == [243, 243, 29])
        #expect(bench.sent == [[0x52] + cp + [0x00, 0x23, 0x01], [0x1E], [0x1E], [0x52] + cp + [0x01, 0x23, 0x01], [0x1E]])
        #expect(phone.events.compactMap { if case .remoteData(let s) = $0 { s } else { nil } } == segments)
        // Get went out within 5 s of Data Ready's timer, the data within 5 s of Get.
        #expect(bench.received[2].time - bench.received[0].time < 5)
        bench.advance(&phone, to: bench.now + 60)
        #expect(!phone.events.contains { if case .timeout = $0 { true } else { false } })
        #expect(phone.writes.filter(\.command).map(\.value) == [[0x00, 0x23, 0x01], [0x01, 0x23, 0x01]])
    }

    /// No Data Ready within 5 s of subscribing: Android only reports it (no write); our server
    /// keeps serving, and a procedure at 7 s is fetched as usual.
    @Test func onDemandDataReadyTimeoutIsHarmless() throws {
        var (bench, phone) = Self.setUp(realTime: false)
        let deadline = try #require(phone.nextDeadline)
        let writes = phone.writes
        bench.advance(&phone, to: deadline)
        #expect(phone.events.last == .timeout(.rangingDataReady, .onDemand))
        #expect(phone.writes == writes)
        bench.advance(&phone, to: 7)
        bench.procedure(Bench.procedure(counter: 2, steps: 5))
        bench.pump(&phone)
        #expect(phone.writes.filter(\.command).map(\.value) == [[0x00, 0x02, 0x00], [0x01, 0x02, 0x00]])
        #expect(phone.events.filter { if case .remoteData = $0 { true } else { false } }.count == 1)
    }

    /// Procedures in pairs 30 ms apart, a pair every 300 ms, on a link of one PDU per 7.5 ms
    /// connection event: the second ends while the first's exchange (Ready, Get, Success,
    /// three segments, Complete, ACK, Success and the confirmations: about 85 ms) runs. Our
    /// server holds the second's Data Ready until the first's ACK. Without that, Android,
    /// whose "handling" state our Get's Success clears, wrote a Get in mid-transfer (Server
    /// Busy) and left its 5 s alarm behind, which wrote Abort and reported a timeout (this test
    /// caught it). Here every procedure arrives whole, in order; each Get is answered Success
    /// and acknowledged once; no Abort, no timeout.
    @Test func onDemandBackToBackProcedures() throws {
        var (bench, phone) = Self.setUp(realTime: false, pduTime: 0.0075)
        var bodies: [UInt16: [UInt8]] = [:]
        let counters = (0..<40).map { UInt16(10 + $0) }
        for (k, c) in counters.enumerated() {
            let p = Bench.procedure(counter: c, steps: Self.fiftySteps)
            bodies[c] = RangingData(selectedTxPower: 0, results: p.subevents).encode()
            bench.schedule(p, at: 2 + Double(k / 2) * 0.3 + Double(k % 2) * 0.03)
        }
        bench.advance(&phone, to: 30)
        var reassembler = RASReassembler()
        var got: [UInt16] = []
        for case .remoteData(let s) in phone.events {
            if let body = try reassembler.add(s) {
                let data = try RangingData.decode(body, senderRole: .reflector, antennaPaths: 1)
                #expect(bodies[data.header.rangingCounter] == body)
                got.append(data.header.rangingCounter)
            }
        }
        #expect(got == counters)
        let commands = phone.writes.filter(\.command).map(\.value)
        #expect(commands == counters.flatMap { [[0x00] + Self.le($0), [0x01] + Self.le($0)] })
        #expect(!phone.events.contains { if case .timeout = $0 { true } else { false } })
        // No Response Code but Success (no Server Busy, no No Records Found).
        let cp = bench.host.rasHandles.controlPoint
        let prefix: [UInt8] = [0x1D] + Self.le(cp) + [0x02]
        let codes: [UInt8] = bench.received.compactMap { r -> UInt8? in r.pdu.count == 5 && Array(r.pdu.prefix(4)) == prefix ? r.pdu[4] : nil }
        #expect(codes == Array(repeating: 0x01, count: 2 * counters.count))
    }
}

extension AndroidRASClientTests {
    static func setUp(realTime: Bool, pduTime: Double) -> (Bench, AndroidRASClient) {
        var bench = Bench(realTime: realTime, pduTime: pduTime)
        var phone = AndroidRASClient()
        bench.pump(&phone)
        return (bench, phone)
    }
}
