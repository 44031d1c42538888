import Foundation
import Testing
@testable import ReflectorFirmware

/// A whole procedure through the firmware: both sides plan it, run every step over the ToyAir,
/// report it as LE CS Subevent Result events (split and reassembled from wire bytes), and the
/// reflector's results cross to the initiator as RAS ranging data in ATT-sized segments.
struct ProcedurePipelineTests {
    struct Side {
        var planner: ProcedurePlanner<AES128>
        var engine: CSStepEngine
    }

    static func sides(inlinePCT: Bool, aci: UInt8) -> (Side, Side) {
        var reflectorConfig = CSConfiguration(mainMode: .mode2, mainModeRepetition: 1, inlinePCT: inlinePCT, timing: CSTiming(tIP1: 30, tIP2: 20, tFCS: 100, tPM: 10, tSW: 10))
        reflectorConfig.role = .reflector
        var initiatorConfig = reflectorConfig
        initiatorConfig.role = .initiator
        let schedule = ProcedureSchedule(subeventLength: 12_000, subeventInterval: 15_000, maxProcedureLength: 1_000_000)
        let aciValue = AntennaConfiguration(index: aci)!
        func side(_ c: CSConfiguration) -> Side {
            Side(planner: ProcedurePlanner(configuration: c, schedule: schedule, antennaPaths: aciValue.antennaPaths, drbg: ProcedurePlannerTests.sampleDRBG()),
                 engine: CSStepEngine(configuration: c, antennaConfiguration: aciValue))
        }
        return (side(initiatorConfig), side(reflectorConfig))
    }

    /// Runs one procedure; returns each side's subevent results.
    static func runProcedure(_ i: inout Side, _ r: inout Side, air: ToyAir) -> ([LECSSubeventResult], [LECSSubeventResult], [PlannedStep]) {
        i.planner.beginProcedure()
        r.planner.beginProcedure()
        var iRadio = ToyRadio(air: air, device: 0)
        var rRadio = ToyRadio(air: air, device: 1)
        var iSteps: [[SubeventStep]] = []
        var rSteps: [[SubeventStep]] = []
        var planned: [PlannedStep] = []
        while let s = i.planner.nextStep() {
            let mirror = r.planner.nextStep()
            #expect(mirror == s, "both sides derive the same step")
            planned.append(s)
            let at = 50_000 + UInt64(s.startMicroseconds)
            i.engine.transmit(s, at: at, radio: &iRadio)
            let rr = r.engine.run(s, at: at, radio: &rRadio)
            let ir = i.engine.receive(s, at: at, radio: &iRadio)
            if Int(s.subevent) == iSteps.count { iSteps.append([]); rSteps.append([]) }
            iSteps[Int(s.subevent)].append(ir)
            rSteps[Int(s.subevent)].append(rr)
        }
        #expect(r.planner.nextStep() == nil)
        func results(_ steps: [[SubeventStep]], compensation: UInt16) -> [LECSSubeventResult] {
            steps.enumerated().map { k, list in
                LECSSubeventResult(connectionHandle: 0x0040, configID: 0, startACLConnectionEventCounter: UInt16(10 + k),
                                   procedureCounter: i.planner.procedureCounter, frequencyCompensation: compensation, referencePowerLevel: -20,
                                   procedureDoneStatus: k == steps.count - 1 ? .complete : .partial,
                                   numAntennaPaths: UInt8(i.engine.antennaPaths), steps: list)
            }
        }
        return (results(iSteps, compensation: 0), results(rSteps, compensation: 0xC000), planned)
    }

    static func phase(_ p: PhaseCorrectionTerm) -> Double { atan2(Double(p.q), Double(p.i)) }

    /// Without inline PCT the initiator needs the reflector's PCTs: over HCI events (split and
    /// reassembled) and RAS segments they arrive exactly, and the combined phase is the round trip.
    @Test(arguments: [23, 247])
    func reflectorResultsReachTheInitiatorOverRAS(attMTU: Int) throws {
        var (i, r) = Self.sides(inlinePCT: false, aci: 4)
        let air = ToyAir()
        let (iResults, rResults, planned) = Self.runProcedure(&i, &r, air: air)
        #expect(iResults.count >= 2, "several subevents")
        #expect(planned.filter { $0.kind == .repetition }.count == iResults.count - 1)

        // The reflector's host gets its results as HCI events from wire bytes.
        var reassembler = SubeventResultReassembler()
        var received: [LECSSubeventResult] = []
        for result in rResults {
            for event in result.splitIntoEvents() {
                let bytes = event.packet.encode()
                #expect(bytes.count <= 2 + 255)
                let packet = try HCIPacket(event: bytes)
                if let whole = try reassembler.add(try SubeventResultEvent.decode(packet: packet, role: .reflector)) { received.append(whole) }
            }
        }
        #expect(received == rResults)

        // ... and sends them to the initiator as RAS ranging data, segmented to the ATT MTU.
        let body = RangingData(selectedTxPower: 0, results: received).encode()
        let segments = RASSegmenter.segments(of: body, attMTU: attMTU)
        #expect(segments.allSatisfy { $0.count <= attMTU - 4 })
        var ras = RASReassembler()
        var whole: [UInt8]?
        for s in segments { whole = try ras.add(s) }
        let data = try RangingData.decode(try #require(whole), senderRole: .reflector)
        #expect(data.header.rangingCounter == 0 && data.subevents.count == rResults.count)

        // The initiator pairs its steps with the reflector's by order and combines the PCTs.
        let reflectorSteps = data.subevents.flatMap(\.steps)
        let initiatorSteps = iResults.flatMap(\.steps)
        #expect(reflectorSteps.count == initiatorSteps.count)
        var checked = 0
        for (k, (mine, theirs)) in zip(initiatorSteps, reflectorSteps).enumerated() {
            guard case .mode2(let it) = mine.data, case .mode2(let rt)? = theirs.data else { continue }
            for slot in 0..<it.antennaPaths {
                let path = AntennaPermutation.path(antennaPaths: it.antennaPaths, index: Int(it.antennaPermutationIndex), slot: slot)!
                let ap = AntennaPath(index: path, configuration: i.engine.antennaConfiguration)
                let h = air.channelResponse(channel: planned[k].channel, initiatorAntenna: ap.initiatorAntenna, reflectorAntenna: ap.reflectorAntenna)
                let expected = 2 * atan2(Double(h.q), Double(h.i))
                let combined = Self.phase(it[slot].pct) + Self.phase(rt[slot].pct)
                #expect(abs(atan2(sin(combined - expected), cos(combined - expected))) < 0.01)
                checked += 1
            }
        }
        #expect(checked == 2 * 72 + 2 * (iResults.count - 1))
    }

    /// With inline PCT the initiator's own results carry the round trip; nothing needs RAS.
    @Test func inlinePCTNeedsNoRAS() throws {
        var (i, r) = Self.sides(inlinePCT: true, aci: 6)
        let air = ToyAir()
        let (iResults, _, planned) = Self.runProcedure(&i, &r, air: air)
        var k = 0
        var checked = 0
        for step in iResults.flatMap(\.steps) {
            defer { k += 1 }
            guard case .mode2(let it) = step.data else { continue }
            for slot in 0..<4 {
                let path = AntennaPermutation.path(antennaPaths: 4, index: Int(it.antennaPermutationIndex), slot: slot)!
                let ap = AntennaPath(index: path, configuration: i.engine.antennaConfiguration)
                let h = air.channelResponse(channel: planned[k].channel, initiatorAntenna: ap.initiatorAntenna, reflectorAntenna: ap.reflectorAntenna)
                let err = Self.phase(it[slot].pct) - 2 * atan2(Double(h.q), Double(h.i))
                #expect(abs(atan2(sin(err), cos(err))) < 0.01)
                checked += 1
            }
        }
        #expect(checked >= 4 * 72)
    }
}
