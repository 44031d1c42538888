@testable import BLEHost
import ReflectorFirmware
import Testing

/// 5,000 procedures through the accessory and the phone, across the 12-bit wrap of the RAS
/// Ranging Counter (RAS 1.0 §3.2.1.2: Ranging_Counter is the CS Procedure_Counter's low 12
/// bits; sdk-nrf PR #22939 fixed a server that broke after 4,096 procedures): the whole
/// `AccessoryHost` (ReflectorProcedures → AccessoryLink → RASServer) over ACL, the phone's
/// `RASClient` and `RangingDataJoin`. Every procedure's ranging data must arrive once, carry
/// its counter's low 12 bits, and join the initiator's procedure of the same full counter,
/// whichever of the two comes first; in real time and on demand, from counter 0 (the nRF
/// case) and from 63,000 (the 16-bit Procedure_Counter wraps at 65,536 on the way).
@Suite struct RASCounterWrapTests {
    /// The phone's side: our RAS client, its segments into the join.
    struct Phone: BenchClient {
        var client = RASClient()
        var join = RangingDataJoin()
        var events: [RASClient.Event] = []
        var joined: [RangingDataJoin.Joined] = []
        var rangingCounters: [UInt16] = []

        mutating func take() -> [[UInt8]] {
            var out: [[UInt8]] = []
            while let p = client.nextPDU() { out.append(p.encode()) }
            return out
        }

        mutating func receive(_ pdu: [UInt8], now: Double) {
            guard let decoded = try? ATTPDU.decode(pdu) else { return }
            for e in client.receive(decoded) {
                events.append(e)
                guard case .segment(let s) = e else { continue }
                if s.count >= 3, s[0] & 0x01 != 0 { rangingCounters.append(UInt16(s[1]) | UInt16(s[2] & 0x0F) << 8) }
                if let j = join.segment(s, antennaPaths: 1) { joined.append(j) }
            }
        }

        mutating func tick(now: Double) {}
        var nextDeadline: Double? { nil }
    }

    static let count = 5_000

    @Test(arguments: [(true, UInt16(0)), (false, 0), (true, 63_000), (false, 63_000)])
    func fiveThousandProceduresAcrossTheWrap(realTime: Bool, first: UInt16) throws {
        var bench = RASBench(realTime: realTime, pduTime: 0.001)
        var phone = Phone()
        bench.pump(&phone)
        phone.client.subscribe()
        bench.pump(&phone)
        #expect(phone.client.mode == (realTime ? .realTime : .onDemand))
        var reports = 0, misses = 0
        for k in 0..<Self.count {
            let counter = first &+ UInt16(k)
            let reflector = RASBench.procedure(counter: counter, steps: 3)
            // The initiator's own procedure: the same counter, its own numbers.
            let initiator = ProcedureResults(procedureCounter: counter, configID: 0, antennaPaths: 1,
                                             subevents: RASBench.procedure(counter: counter &+ 1, steps: 3).subevents)
            let before = phone.joined.count
            // Even: the initiator's results first; odd: the reflector's data first.
            if k % 2 == 0 { #expect(phone.join.procedure(initiator) == nil) }
            for o in bench.procedure(reflector) {
                if case .procedure = o { reports += 1 }
                if case .proceduresMissed = o { misses += 1 }
            }
            bench.pump(&phone)
            if k % 2 == 1 {
                #expect(phone.joined.count == before)
                if let j = phone.join.procedure(initiator) { phone.joined.append(j) }
            }
            guard phone.joined.count == before + 1, let j = phone.joined.last else {
                Issue.record("procedure \(counter) (ranging counter \(counter & 0x0FFF)) did not join")
                break
            }
            #expect(j.results.procedureCounter == counter)
            #expect(j.reflectorSteps == reflector.steps.map { Optional($0.data) }, "procedure \(counter)")
        }
        #expect(phone.joined.count == Self.count)
        #expect(reports == Self.count && misses == 0)
        #expect(phone.rangingCounters == (0..<Self.count).map { (first &+ UInt16($0)) & 0x0FFF })
        // The wrap was crossed: a ranging counter of 0 after 4,095.
        let wraps = zip(phone.rangingCounters, phone.rangingCounters.dropFirst()).filter { $0 == 0x0FFF && $1 == 0 }.count
        #expect(wraps == 1)
        #expect(phone.join.waitingCounters.isEmpty)
        #expect(!phone.events.contains { if case .refused = $0 { true } else if case .overwritten = $0 { true } else { false } })
    }

    /// A procedure the initiator lost (its ranging data came, its own results never did) must
    /// not join the initiator's procedure 4,096 later, which has the same ranging counter: the
    /// phone's join drops ranging data the initiator's procedures have passed.
    @Test func aLostInitiatorProcedureDoesNotJoinTheNextLap() throws {
        var join = RangingDataJoin()
        func data(_ c: UInt16) -> [[UInt8]] {
            RASSegmenter.segments(of: RangingData(selectedTxPower: 0, results: RASBench.procedure(counter: c, steps: 3).subevents).encode(), attMTU: 247)
        }
        var joined = 0
        for c in UInt16(0)..<4_200 {
            let initiator = ProcedureResults(procedureCounter: c, configID: 0, antennaPaths: 1, subevents: RASBench.procedure(counter: c &+ 1, steps: 3).subevents)
            let reflector = RASBench.procedure(counter: c, steps: 3)
            if c == 5 {
                // The initiator's procedure 5 is lost: only the ranging data comes.
                for s in data(c) { #expect(join.segment(s, antennaPaths: 1) == nil) }
                continue
            }
            let early = join.procedure(initiator)
            #expect(early == nil, "procedure \(c) joined ranging data of another procedure")
            var late: RangingDataJoin.Joined?
            for s in data(c) { if let j = join.segment(s, antennaPaths: 1) { late = j } }
            let j = try #require(late, "procedure \(c) did not join")
            #expect(j.results.procedureCounter == c && j.reflectorSteps == reflector.steps.map { Optional($0.data) })
            joined += 1
        }
        #expect(joined == 4_199)
    }
}
