import Testing
@testable import ReflectorFirmware
import TestSupport

@Suite struct SubeventResultTests {
    static let btmonSteps = [
        SubeventStep(channel: 3, data: .mode0(Mode0StepData(packetRSSI: -24, packetAntenna: 1))),
        SubeventStep(channel: 71, data: .mode2(ToneStepData(antennaPermutationIndex: 0, tones: [
            ToneMeasurement(pct: PhaseCorrectionTerm(i: 519, q: -192), quality: ToneQualityIndicator()),
            ToneMeasurement(pct: PhaseCorrectionTerm(i: 522, q: -182), quality: ToneQualityIndicator(quality: .high, extensionSlot: .toneExpected)),
        ])!)),
        SubeventStep(channel: 16, data: .mode1(Mode1StepData(packetNADM: 0xFF, packetRSSI: -24, toaTod: -8, packetAntenna: 1))),
    ]
    static let stepsHex = "000303" + "00E801" + "024709" + "000702F4000AA2F420" + "011006" + "00FFE8F8FF01"

    static let result = LECSSubeventResult(
        connectionHandle: 0x0040, configID: 1, startACLConnectionEventCounter: 0x1234, procedureCounter: 5,
        frequencyCompensation: 0xC000, referencePowerLevel: -10, procedureDoneStatus: .complete, subeventDoneStatus: .complete,
        abortReasons: .none, numAntennaPaths: 1, steps: btmonSteps)

    @Test func subeventResultExactBytes() throws {
        let bytes = Self.result.encode()
        let header = "4000" + "01" + "3412" + "0500" + "00C0" + "F6" + "00" + "00" + "00" + "01" + "03"
        #expect(Hex.string(bytes.prefix(15), uppercase: true) == header)
        #expect(Hex.string(bytes, uppercase: true) == header + Self.stepsHex)
        #expect(try LECSSubeventResult.decode(bytes, role: .reflector) == Self.result)
        let packet = Self.result.packet
        #expect(packet.encode()[0] == 0x3E)
        #expect(Int(packet.encode()[1]) == 1 + bytes.count)
        #expect(try LECSSubeventResult.decode(packet: packet, role: .reflector) == Self.result)
        #expect(try SubeventResultEvent.decode(packet: packet, role: .reflector) == .result(Self.result))
    }

    @Test func subeventResultContinueExactBytes() throws {
        let c = LECSSubeventResultContinue(connectionHandle: 0x0040, configID: 1, stepsReport: SubeventStepsReport(
            procedureDoneStatus: .partial, subeventDoneStatus: .aborted,
            abortReasons: AbortReasons(procedure: .channelMapUpdateInstantPassed, subevent: .noCSSyncReceived),
            numAntennaPaths: 1, steps: Self.btmonSteps))
        let bytes = c.encode()
        #expect(Hex.string(bytes.prefix(8), uppercase: true) == "4000" + "01" + "01" + "0F" + "23" + "01" + "03")
        #expect(Hex.string(bytes.dropFirst(8), uppercase: true) == Self.stepsHex)
        #expect(try LECSSubeventResultContinue.decode(bytes, role: .reflector) == c)
        #expect(try SubeventResultEvent.decode(packet: c.packet, role: .reflector) == .continuation(c))
        #expect(throws: DecodeError.unexpectedCode(expected: 0x31, found: 0x33)) {
            _ = try SubeventResultEvent.decode(packet: LECSTestEndComplete().packet, role: .reflector)
        }
    }

    @Test func statusesAndAbortReasons() throws {
        #expect(ProcedureDoneStatus.allCases.map(\.rawValue) == [0x0, 0x1, 0xF])
        #expect(SubeventDoneStatus.allCases.map(\.rawValue) == [0x0, 0x1, 0xF])
        #expect(ProcedureAbortReason.insufficientChannels.rawValue == 2)
        #expect(ProcedureAbortReason.channelMapUpdateInstantPassed.rawValue == 3)
        #expect(SubeventAbortReason.noCSSyncReceived.rawValue == 2)
        #expect(SubeventAbortReason.schedulingConflict.rawValue == 3)
        let a = AbortReasons(procedure: .unspecified, subevent: .localOrRemoteRequest)
        #expect(a.octet == 0x1F)
        #expect(try AbortReasons(octet: 0x1F) == a)
        #expect(throws: DecodeError.invalidValue(field: "Abort_Reason", value: 0x04)) { _ = try AbortReasons(octet: 0x04) }
        #expect(throws: DecodeError.invalidValue(field: "Abort_Reason", value: 0x40)) { _ = try AbortReasons(octet: 0x40) }
        var b = Self.result.encode()
        b[10] = 2
        #expect(throws: DecodeError.invalidValue(field: "Procedure_Done_Status", value: 2)) { _ = try LECSSubeventResult.decode(b, role: .reflector) }
        b = Self.result.encode()
        b[11] = 0xE
        #expect(throws: DecodeError.invalidValue(field: "Subevent_Done_Status", value: 0xE)) { _ = try LECSSubeventResult.decode(b, role: .reflector) }
        b = Self.result.encode()
        b[13] = 5
        #expect(throws: DecodeError.invalidValue(field: "Num_Antenna_Paths", value: 5)) { _ = try LECSSubeventResult.decode(b, role: .reflector) }
    }

    @Test func decodersAreRobust() {
        let bytes = Self.result.encode()
        DecoderChecks.everyTruncationIsTruncated(bytes) { b throws(DecodeError) in try LECSSubeventResult.decode(b, role: .reflector) }
        DecoderChecks.extraOctetIsTrailing(bytes) { b throws(DecodeError) in try LECSSubeventResult.decode(b, role: .reflector) }
        DecoderChecks.fuzz(seed: 200, valid: bytes, iterations: 4000, maxLength: 80) { b throws(DecodeError) in
            try LECSSubeventResult.decode(b, role: .reflector)
        }
        let c = LECSSubeventResultContinue(connectionHandle: 0x0040, configID: 1,
                                           stepsReport: SubeventStepsReport(numAntennaPaths: 1, steps: Self.btmonSteps)).encode()
        DecoderChecks.everyTruncationIsTruncated(c) { b throws(DecodeError) in try LECSSubeventResultContinue.decode(b, role: .reflector) }
        DecoderChecks.extraOctetIsTrailing(c) { b throws(DecodeError) in try LECSSubeventResultContinue.decode(b, role: .reflector) }
        DecoderChecks.fuzz(seed: 201, valid: c, iterations: 4000, maxLength: 80) { b throws(DecodeError) in
            try LECSSubeventResultContinue.decode(b, role: .reflector)
        }
        // The initiator's layout with PCTs: a mode-2 step reads the same in every layout.
        let tones = LECSSubeventResultContinue(connectionHandle: 0x0040, configID: 1, stepsReport: SubeventStepsReport(numAntennaPaths: 1, steps: [Self.btmonSteps[1]])).encode()
        DecoderChecks.fuzz(seed: 203, valid: tones, iterations: 4000, maxLength: 80) { b throws(DecodeError) in
            try LECSSubeventResultContinue.decode(b, role: .initiator, sequencePCT: true)
        }
        // Random step counts with no step octets must not make the decoder reserve or trap.
        DecoderChecks.fuzz(seed: 202, valid: Hex.bytes("400001000000 04 FF"), iterations: 2000, someDecode: false) { b throws(DecodeError) in
            try LECSSubeventResultContinue.decode(b, role: .reflector)
        }
    }

    /// A 160-step mode-2 subevent with N_AP = 4 (24 octets per step).
    static var bigSubevent: LECSSubeventResult {
        var steps: [SubeventStep] = []
        for k in 0..<160 {
            var t = ToneStepData(antennaPermutationIndex: UInt8(k % 24), antennaPaths: 4)
            for j in 0..<5 {
                t[j] = ToneMeasurement(pct: PhaseCorrectionTerm(i: k * 10 - 800 + j, q: 700 - k * 9 - j),
                                       quality: ToneQualityIndicator(quality: ToneQuality(rawValue: UInt8((k + j) % 4))!,
                                                                     extensionSlot: j == 4 ? .toneExpected : .notExtensionSlot))
            }
            steps.append(SubeventStep(channel: UInt8(2 + k % 70), data: .mode2(t)))
        }
        return LECSSubeventResult(connectionHandle: 0x0001, configID: 2, startACLConnectionEventCounter: 0xFFF0, procedureCounter: 0x1001,
                                  referencePowerLevel: -3, procedureDoneStatus: .complete, subeventDoneStatus: .complete,
                                  abortReasons: .none, numAntennaPaths: 4, steps: steps)
    }

    @Test func splitAndReassemble160Steps() throws {
        let whole = Self.bigSubevent
        #expect(whole.encodedLength == 15 + 160 * 24)
        let events = whole.splitIntoEvents()
        // 239 octets of steps fit the first event (9 steps), 246 each Continue (10 steps).
        #expect(events.count == 1 + 16)
        var total = 0
        var reassembler = SubeventResultReassembler()
        var out: LECSSubeventResult?
        for (k, e) in events.enumerated() {
            let wire = e.packet.encode()
            #expect(wire.count - 2 <= 255)
            #expect(Int(wire[1]) == wire.count - 2)
            let last = k == events.count - 1
            // Decode what went over the wire, then reassemble.
            let decoded = try SubeventResultEvent.decode(packet: HCIPacket(event: wire), role: .reflector)
            #expect(decoded == e)
            switch decoded {
            case let .result(r):
                #expect(k == 0)
                #expect(r.steps.count == 9)
                #expect(r.procedureDoneStatus == .partial && r.subeventDoneStatus == .partial)
                #expect(wire[2 + 1 + 14] == 9)  // Num_Steps_Reported
            case let .continuation(c):
                #expect(k > 0)
                #expect(c.steps.count == (last ? 160 - 9 - 150 : 10))
                #expect(c.procedureDoneStatus == (last ? .complete : .partial))
                #expect(c.subeventDoneStatus == (last ? .complete : .partial))
                #expect(c.numAntennaPaths == 4)
                #expect(Int(wire[2 + 1 + 7]) == c.steps.count)
            }
            total += decoded.steps.count
            let r = try reassembler.add(decoded)
            if last { out = r } else { #expect(r == nil) }
        }
        #expect(total == 160)
        #expect(out == whole)
        #expect(reassembler.pending == nil)
    }

    @Test func splitKeepsFinalStatusesOnLastEvent() throws {
        var whole = Self.bigSubevent
        whole.procedureDoneStatus = .aborted
        whole.subeventDoneStatus = .aborted
        whole.abortReasons = AbortReasons(procedure: .localOrRemoteRequest, subevent: .localOrRemoteRequest)
        let events = whole.splitIntoEvents()
        guard case let .continuation(last) = events.last! else { Issue.record("last is not a Continue"); return }
        #expect(last.procedureDoneStatus == .aborted && last.subeventDoneStatus == .aborted)
        #expect(last.abortReasons == whole.abortReasons)
        guard case let .result(first) = events.first! else { Issue.record("first is not a Result"); return }
        #expect(first.abortReasons == .none)
        var reassembler = SubeventResultReassembler()
        var out: LECSSubeventResult?
        for e in events { out = try reassembler.add(e) }
        #expect(out == whole)
        // A small subevent is one event with its own statuses; an empty one too.
        #expect(Self.result.splitIntoEvents() == [.result(Self.result)])
        var empty = Self.result
        empty.steps = []
        empty.subeventDoneStatus = .aborted
        #expect(empty.splitIntoEvents() == [.result(empty)])
    }

    /// The event a controller would send for one fragment of `whole`'s steps (a Subevent Result
    /// first, Continue events after, "partial" statuses on all but the last), through the bytes
    /// of an HCI event packet.
    static func event(for fragment: Fragment<SubeventStep>, of whole: LECSSubeventResult) -> [HCIPacket] {
        let steps = Array(fragment.elements)
        let procedureStatus: ProcedureDoneStatus = fragment.isLast ? whole.procedureDoneStatus : .partial
        let subeventStatus: SubeventDoneStatus = fragment.isLast ? whole.subeventDoneStatus : .partial
        let abort: AbortReasons = fragment.isLast ? whole.abortReasons : .none
        let event: SubeventResultEvent
        if fragment.isFirst {
            var first = whole
            first.steps = steps
            first.procedureDoneStatus = procedureStatus
            first.subeventDoneStatus = subeventStatus
            first.abortReasons = abort
            event = .result(first)
        } else {
            event = .continuation(LECSSubeventResultContinue(
                connectionHandle: whole.connectionHandle, configID: whole.configID, stepsReport: SubeventStepsReport(
                    procedureDoneStatus: procedureStatus, subeventDoneStatus: subeventStatus, abortReasons: abort,
                    numAntennaPaths: whole.numAntennaPaths, steps: steps)))
        }
        do {
            return [try HCIPacket(event: event.packet.encode())]
        } catch {
            Issue.record("the event for fragment \(fragment.index) did not encode: \(error)")
            return []
        }
    }

    /// Every fragmentation of a subevent into Result and Continue events reassembles to it:
    /// one event, one step per event, every split point, subevents back to back and random
    /// fragmentations; the reassembler holds exactly the steps received until the last event
    /// and nothing after it.
    @Test func reassemblyIsTheSameForEveryFragmentation() throws {
        var aborted = Self.result
        aborted.procedureDoneStatus = .aborted
        aborted.subeventDoneStatus = .aborted
        aborted.abortReasons = AbortReasons(procedure: .localOrRemoteRequest, subevent: .noCSSyncReceived)
        var empty = Self.result
        empty.steps = []
        var partialProcedure = Self.bigSubevent
        partialProcedure.procedureDoneStatus = .partial
        let subevents = [Self.result, Self.bigSubevent, aborted, empty, partialProcedure]
        // Nine 24-octet steps fill the first event of the 160-step subevent (255 − 1 − 15 octets).
        try StreamDecoderVerifier { SubeventResultReassembler() }.verify(
            messages: subevents.map { ($0.steps, $0) }, partial: { $0 }, maximumFragmentLength: 9, randomChunkings: 50) { f in
            Self.event(for: f, of: subevents[f.message]).compactMap { try? SubeventResultEvent.decode(packet: $0, role: .reflector) }
        }
    }

    @Test func reassemblerErrors() throws {
        let events = Self.bigSubevent.splitIntoEvents()
        var r = SubeventResultReassembler()
        #expect(throws: SubeventReassemblyError.continuationWithoutResult) { _ = try r.add(events[1]) }
        _ = try r.add(events[0])
        _ = try r.add(events[1])
        // A new subevent starts before the previous one finished: the old one is dropped.
        #expect(try r.add(.result(Self.result)) == Self.result)
        #expect(r.droppedIncompleteSubevents == 1)
        _ = try r.add(events[0])
        guard case var .continuation(c) = events[1] else { return }
        c.configID = 3
        #expect(throws: SubeventReassemblyError.mismatchedContinuation) { _ = try r.add(.continuation(c)) }
        #expect(r.pending == nil)
        // More than 160 steps for one subevent.
        _ = try r.add(events[0])
        for e in events.dropFirst().dropLast() { _ = try r.add(e) }
        guard case var .continuation(tooMany) = events[1] else { return }
        tooMany.steps += tooMany.steps
        #expect(throws: SubeventReassemblyError.tooManySteps) { _ = try r.add(.continuation(tooMany)) }
    }
}
