import Testing
@testable import ReflectorFirmware
import TestSupport

@Suite struct RangingDataTests {
    @Test func headersExactBytes() throws {
        var w = ByteWriter()
        RangingHeader(rangingCounter: 0x1005, configID: 1, selectedTxPower: -4, antennaPathsMask: 0x01).encode(into: &w)
        #expect(Hex.string(w.bytes, uppercase: true) == "0510FC01")  // counter 0x005 (12 bits) | config 1 << 12
        var r = ByteReader(w.bytes)
        let h = try RangingHeader.decode(from: &r)
        #expect(h.rangingCounter == 0x005 && h.configID == 1 && h.selectedTxPower == -4 && h.antennaPaths == 1)
        #expect(RangingHeader.mask(antennaPaths: 4) == 0x0F)
        var bad = ByteReader(Hex.bytes("0540FC01"))
        #expect(throws: DecodeError.invalidValue(field: "Configuration_ID", value: 4)) { _ = try RangingHeader.decode(from: &bad) }

        var w2 = ByteWriter()
        RASSubeventHeader(startACLConnectionEvent: 0x1234, frequencyCompensation: 0xC000, rangingDoneStatus: .partial,
                          subeventDoneStatus: .aborted, abortReasons: AbortReasons(procedure: .none, subevent: .schedulingConflict),
                          referencePowerLevel: -10, numStepsReported: 3).encode(into: &w2)
        #expect(Hex.string(w2.bytes, uppercase: true) == "3412" + "00C0" + "F1" + "30" + "F6" + "03")
        var r2 = ByteReader(w2.bytes)
        #expect(try RASSubeventHeader.decode(from: &r2).subeventDoneStatus == .aborted)
        DecoderChecks.everyTruncationIsTruncated(w.bytes) { b throws(DecodeError) in
            var r = ByteReader(b)
            return try RangingHeader.decode(from: &r)
        }
        DecoderChecks.everyTruncationIsTruncated(w2.bytes) { b throws(DecodeError) in
            var r = ByteReader(b)
            return try RASSubeventHeader.decode(from: &r)
        }
        DecoderChecks.fuzz(seed: 302, valid: w2.bytes, maxLength: 10) { b throws(DecodeError) in
            var r = ByteReader(b)
            return try RASSubeventHeader.decode(from: &r)
        }
        var badStatus = ByteReader(Hex.bytes("3412 00C0 F2 30 F6 03"))
        #expect(throws: DecodeError.invalidValue(field: "Ranging_Done_Status", value: 2)) { _ = try RASSubeventHeader.decode(from: &badStatus) }
    }

    static let procedure = [
        SubeventResultTests.result,
        {
            var s = SubeventResultTests.result
            s.startACLConnectionEventCounter = 0x1236
            s.procedureDoneStatus = .complete
            return s
        }(),
    ]

    @Test func rangingDataExactBytesFromSubeventResults() throws {
        var first = Self.procedure[0]
        first.procedureDoneStatus = .partial
        let data = RangingData(selectedTxPower: -4, results: [first])
        let bytes = data.encode()
        #expect(Hex.string(bytes, uppercase: true) == "0510FC01" + "3412" + "00C0" + "01" + "00" + "F6" + "03"
                + "00" + "00E801" + "02" + "000702F4000AA2F420" + "01" + "00FFE8F8FF01")
        #expect(try RangingData.decode(bytes) == data)
        // The reflector's mode-0 data read as initiator data has the wrong length.
        #expect(throws: DecodeError.self) { _ = try RangingData.decode(bytes, senderRole: .initiator) }
    }

    @Test func abortedStepsAndSubevents() throws {
        let sub = RangingSubevent(header: RASSubeventHeader(startACLConnectionEvent: 7, numStepsReported: 0),
                                  steps: [RangingStep(aborted: .mode2), RangingStep(.mode0(Mode0StepData(packetRSSI: -30)))])
        #expect(sub.header.numStepsReported == 2)
        let data = RangingData(header: RangingHeader(rangingCounter: 9, configID: 0, selectedTxPower: 0, antennaPathsMask: 1), subevents: [sub])
        let bytes = data.encode()
        #expect(Hex.string(bytes.suffix(5), uppercase: true) == "82" + "00" + "00E201")
        #expect(try RangingData.decode(bytes) == data)
        var aborted = SubeventResultTests.result
        aborted.subeventDoneStatus = .aborted
        #expect(RangingSubevent(aborted).steps.isEmpty)
    }

    @Test func rangingDataIsRobust() {
        let bytes = RangingData(selectedTxPower: -4, results: Self.procedure).encode()
        // Truncations inside the header or a subevent are `.truncated`; at a subevent boundary the body simply ends.
        for n in 0..<bytes.count {
            do {
                let d = try RangingData.decode(Array(bytes.prefix(n)))
                #expect(n == 4 || n == bytes.count / 2 + 2, "prefix \(n) decoded to \(d.subevents.count) subevents")
            } catch {
                guard case .truncated = error else { Issue.record("prefix \(n): \(error)"); continue }
            }
        }
        DecoderChecks.fuzz(seed: 300, valid: bytes, iterations: 4000, maxLength: 100) { b throws(DecodeError) in try RangingData.decode(b) }
        DecoderChecks.fuzz(seed: 301, valid: bytes, iterations: 2000, maxLength: 100) { b throws(DecodeError) in
            try RangingData.decode(b, senderRole: .initiator, sequencePCT: true, antennaPaths: 4)
        }
    }

    static var bigProcedure: RangingData {
        var s = SubeventResultTests.bigSubevent
        s.procedureDoneStatus = .partial
        var s2 = SubeventResultTests.bigSubevent
        s2.startACLConnectionEventCounter &+= 2
        return RangingData(selectedTxPower: 3, results: [s, s2])
    }

    @Test(arguments: [23, 247, 517])
    func segmentAndReassemble(attMTU: Int) throws {
        let body = Self.bigProcedure.encode()
        #expect(body.count == 4 + 2 * (8 + 160 * 22))
        let segments = RASSegmenter.segments(of: body, attMTU: attMTU)
        let perSegment = attMTU - 5
        #expect(segments.count == (body.count + perSegment - 1) / perSegment)
        for (k, s) in segments.enumerated() {
            #expect(s.count <= attMTU - 4)
            let h = RASSegmentationHeader(octet: s[0])
            #expect(h.isFirst == (k == 0))
            #expect(h.isLast == (k == segments.count - 1))
            #expect(Int(h.counter) == k % 64)
        }
        var r = RASReassembler()
        var out: [UInt8]?
        for s in segments { out = try r.add(s) }
        #expect(out == body)
        #expect(try RangingData.decode(out!) == Self.bigProcedure)
        #expect(!r.inProgress)
    }

    /// One fragment of a body as the notification that carries it: the segmentation header
    /// (first and last bits, a counter rolling on from a different start for every body) and
    /// the octets.
    static func segment(_ fragment: Fragment<UInt8>) -> [[UInt8]] {
        let counter = UInt8(truncatingIfNeeded: fragment.message * 13 + fragment.index)
        return [[RASSegmentationHeader(isFirst: fragment.isFirst, isLast: fragment.isLast, counter: counter).octet] + fragment.elements]
    }

    /// Every segmentation of a body reassembles to it: one segment, one octet per segment (the
    /// counter wrapping many times), every split point, bodies back to back and random
    /// segmentations, at most the 242 octets an ATT_MTU of 247 carries per segment; the
    /// reassembler holds exactly the octets received until the last segment.
    @Test func reassemblyIsTheSameForEverySegmentation() throws {
        let small = RangingData(selectedTxPower: -4, results: Self.procedure).encode()
        var one = SubeventResultTests.bigSubevent
        one.steps = Array(one.steps.prefix(40))
        let medium = RangingData(selectedTxPower: 3, results: [one]).encode()
        let bodies = [small, medium, [], [0x42]]
        try StreamDecoderVerifier { RASReassembler() }.verify(messages: bodies.map { ($0, $0) }, partial: { $0 },
                                                               maximumFragmentLength: 247 - 5, randomChunkings: 50, cut: Self.segment)
        #expect(medium.count == 4 + 8 + 40 * 22)
    }

    @Test func segmentationHeaderBits() {
        #expect(RASSegmentationHeader(isFirst: true, isLast: false, counter: 0).octet == 0x01)
        #expect(RASSegmentationHeader(isFirst: false, isLast: true, counter: 63).octet == 0xFE)
        #expect(RASSegmentationHeader(octet: 0x0B) == RASSegmentationHeader(isFirst: true, isLast: true, counter: 2))
        let one = RASSegmenter.segments(of: [], attMTU: 23)
        #expect(one == [[0x03]])
        let small = RASSegmenter.segments(of: [1, 2, 3], attMTU: 23, firstCounter: 63)
        #expect(small == [[0xFF, 1, 2, 3]])
    }

    @Test func reassemblerDetectsLossAndDisorder() throws {
        let body = Self.bigProcedure.encode()
        let segments = RASSegmenter.segments(of: body, attMTU: 23)
        var r = RASReassembler()
        // Missing segment 5.
        for s in segments.prefix(5) { #expect(try r.add(s) == nil) }
        #expect(throws: RASReassemblyError.unexpectedCounter(expected: 5, found: 6)) { _ = try r.add(segments[6]) }
        #expect(!r.inProgress)
        #expect(throws: RASReassemblyError.missingFirstSegment) { _ = try r.add(segments[7]) }
    }

    /// An empty notification in the middle of a body is an error like the others: the body in
    /// progress is dropped and the reassembler is idle (it kept the body and waited before).
    @Test func anEmptySegmentDropsTheBodyInProgress() throws {
        let segments = RASSegmenter.segments(of: Self.bigProcedure.encode(), attMTU: 247)
        var r = RASReassembler()
        _ = try r.add(segments[0])
        #expect(throws: RASReassemblyError.emptySegment) { _ = try r.add([UInt8]()) }
        #expect(!r.inProgress && r.body.isEmpty)
        #expect(throws: RASReassemblyError.missingFirstSegment) { _ = try r.add(segments[1]) }
    }

    @Test func reassemblerDetectsOutOfOrderAndMissingLast() throws {
        let segments = RASSegmenter.segments(of: Self.bigProcedure.encode(), attMTU: 247)
        var r = RASReassembler()
        _ = try r.add(segments[0])
        #expect(throws: RASReassemblyError.unexpectedCounter(expected: 1, found: 2)) { _ = try r.add(segments[2]) }
        _ = try r.add(segments[0])
        _ = try r.add(segments[1])
        // The next procedure's first segment arrives before this one's last.
        #expect(throws: RASReassemblyError.missingLastSegment) { _ = try r.add(segments[0]) }
        #expect(!r.inProgress)
        #expect(throws: RASReassemblyError.emptySegment) { _ = try r.add([UInt8]()) }
        var tiny = RASReassembler(maxBodyLength: 100)
        #expect(throws: RASReassemblyError.bodyTooLong) { _ = try tiny.add(segments[0]) }
        // A clean run after the errors still works, and the counter wraps past 63.
        var clean = RASReassembler()
        let many = RASSegmenter.segments(of: Self.bigProcedure.encode(), attMTU: 23)
        #expect(many.count > 64)
        var out: [UInt8]?
        for s in many { out = try clean.add(s) }
        #expect(out == Self.bigProcedure.encode())
    }
}
