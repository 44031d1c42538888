import ReflectorFirmware
import EmulatorMath
@testable import HCITransport
import Testing
import TestSupport
import WireFormat

struct BTSnoopReaderTests {
    static func records() throws -> [BTSnoopRecord] {
        let t = { (us: UInt64) in BTSnoopTimestamp(virtualMicroseconds: us) }
        return [
            BTSnoopRecord(packet: try .command(opcode: HCIOpcode.reset), direction: .hostToController, timestamp: t(0)),
            BTSnoopRecord(packet: try .event(code: 0x0E, parameters: [1, 0x03, 0x0C, 0]), direction: .controllerToHost, timestamp: t(625)),
            BTSnoopRecord(packet: try .acl(handle: 0x40, data: [5, 0, 4, 0, 0x0A, 1, 0, 0, 0]), direction: .hostToController, timestamp: t(1_250)),
            BTSnoopRecord(packet: try .acl(handle: 0x40, data: []), direction: .controllerToHost, timestamp: t(1_875), cumulativeDrops: 2),
            BTSnoopRecord(packet: try .event(code: 0x3E, parameters: Array(0..<255)), direction: .controllerToHost, timestamp: t(2_500)),
        ]
    }

    static func h4Only() -> [BTSnoopRecord] {
        let t = BTSnoopTimestamp(unixMicroseconds: 1_795_952_853_255_589)
        return [
            BTSnoopRecord(packet: HCIPacket(indicator: .synchronousData, bytes: [1, 0, 2, 9, 9]), direction: .controllerToHost, timestamp: t),
            BTSnoopRecord(packet: HCIPacket(indicator: .isoData, bytes: [1, 0, 1, 0, 7]), direction: .hostToController, timestamp: t),
            BTSnoopRecord(
                packet: HCIPacket(indicator: .aclData, bytes: [1, 0x20, 0x40, 0]), flags: BTSnoopPacketFlags(rawValue: 1),
                timestamp: t, cumulativeDrops: 9, truncatedOctetCount: 64),
        ]
    }

    @Test func roundTripH4() throws {
        let records = try Self.records() + Self.h4Only()
        let file = try BTSnoopWriter().encodeFile(records)
        let result = BTSnoopReader.parse(file)
        #expect(result.error == nil)
        #expect(result.header == BTSnoopFileHeader(datalink: .hciUART))
        #expect(result.records == records)
        #expect(result.records.last?.originalLength(in: .hciUART) == 69)
    }

    @Test func roundTripUnencapsulated() throws {
        let writer = try BTSnoopWriter(datalink: .hciUnencapsulated)
        let records = try Self.records()
        let result = BTSnoopReader.parse(try writer.encodeFile(records))
        #expect(result.error == nil)
        #expect(result.header?.datalink == .hciUnencapsulated)
        #expect(result.records == records)
    }

    @Test func bumbleRecordFromTheReference() {
        // reference/serial.md §3: header, then 00000004 00000004 00000002 00000000 00E33F1BEB0985A5 01 03 0C 00.
        let file: [UInt8] = BTSnoopWriter().header + [
            0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, 0,
            0x00, 0xE3, 0x3F, 0x1B, 0xEB, 0x09, 0x85, 0xA5,
            0x01, 0x03, 0x0C, 0x00,
        ]
        let result = BTSnoopReader.parse(file)
        #expect(result.error == nil)
        #expect(result.records.count == 1)
        #expect(result.records.first?.packet.opcode == 0x0C03)
        #expect(result.records.first?.direction == .hostToController)
        #expect(result.records.first?.timestamp.microsecondsSinceYearZero == 0x00E3_3F1B_EB09_85A5)
    }

    @Test func everyTruncationKeepsTheCompleteRecordsAndNamesTheOffset() throws {
        let writer = BTSnoopWriter()
        let records = try Self.records()
        let file = try writer.encodeFile(records)
        var starts = [16]
        for record in records { starts.append(starts.last! + 24 + record.includedLength(in: .hciUART)) }
        #expect(starts.last == file.count)
        for cut in 0...file.count {
            let result = BTSnoopReader.parse(Array(file.prefix(cut)))
            if cut < 16 {
                #expect(result.error == .truncatedFileHeader(available: cut))
                #expect(result.records.isEmpty && result.header == nil)
                continue
            }
            let complete = starts.dropFirst().filter { $0 <= cut }.count
            #expect(result.records == Array(records.prefix(complete)), "cut \(cut)")
            let start = starts[complete]
            if cut == start {
                #expect(result.error == nil, "cut \(cut)")
            } else if cut - start < 24 {
                #expect(result.error == .truncatedRecordHeader(offset: start, available: cut - start), "cut \(cut)")
            } else {
                let included = UInt32(records[complete].includedLength(in: .hciUART))
                #expect(result.error == .truncatedRecordData(offset: start, includedLength: included, available: cut - start - 24), "cut \(cut)")
            }
            #expect(result.error?.offset == (cut == start ? nil : start))
        }
    }

    /// What the incremental reading of a growing capture reports.
    enum Read: Equatable {
        case header(BTSnoopFileHeader)
        case record(BTSnoopRecord)
        case error(BTSnoopError)
    }

    /// `BTSnoopReader` is not incremental: it parses a whole file. This adapter makes it one, the
    /// way a tool tailing a live capture would use it: it keeps everything received, parses it
    /// again after each chunk and reports the header and the records it has not reported yet.
    /// A truncation error is "need more data"; any other error is reported once and ends the
    /// reading. The state is the octets received after the last complete record (or header).
    struct GrowingCapture: StreamDecoder {
        var received: [UInt8] = []
        var reported = 0
        var headerReported = false
        var finished = false
        var leftover = 0

        var progress: Int { leftover }

        mutating func decode(_ chunk: ArraySlice<UInt8>) -> [Read] {
            guard !finished else { return [] }
            received += chunk
            let result = BTSnoopReader.parse(received)
            var out: [Read] = []
            if let header = result.header, !headerReported {
                headerReported = true
                out.append(.header(header))
            }
            for record in result.records.dropFirst(reported) { out.append(.record(record)) }
            reported = result.records.count
            let complete = result.header == nil ? 0 : BTSnoopFileHeader.length + result.records.reduce(0) {
                $0 + BTSnoopReader.recordHeaderLength + $1.includedLength(in: result.header!.datalink)
            }
            leftover = received.count - complete
            switch result.error {
            case nil, .truncatedFileHeader?, .truncatedRecordHeader?, .truncatedRecordData?:
                break
            case let error?:
                out.append(.error(error))
                finished = true
                leftover = 0
            }
            return out
        }
    }

    static var growingCapture: StreamDecoderVerifier<GrowingCapture, Int> { StreamDecoderVerifier { GrowingCapture() } }

    /// Every split of a capture file, and reading it one octet at a time or in random chunks,
    /// gives the same header and records as parsing it whole, with no record reported before all
    /// its octets are in (a prefix parse holds back exactly the partial record), in both datalinks.
    @Test func everySplitOfAFileGivesTheSameRecords() throws {
        let h4 = BTSnoopWriter()
        let h1 = try BTSnoopWriter(datalink: .hciUnencapsulated)
        for (writer, records) in [(h4, try Self.records() + Self.h4Only()), (h1, try Self.records())] {
            var pairs: [(input: [UInt8], expected: [Read])] = [(writer.header, [.header(BTSnoopFileHeader(datalink: writer.datalink))])]
            for record in records { pairs.append((try writer.encode(record), [.record(record)])) }
            try Self.growingCapture.verify(stream: pairs, partial: { $0 }, pairsStandAlone: false, randomChunkings: 50)
        }
    }

    /// A malformed record ends the reading at the same octet however the file arrives: the
    /// records before it, then its error, then nothing.
    @Test func aMalformedRecordEndsTheReadingInEverySplit() throws {
        let writer = BTSnoopWriter()
        let records = try Self.records()
        var bad = try writer.encode(records[1])
        bad[7] += 1  // included length one more than the original length
        let pairs: [(input: [UInt8], expected: [Read])] = [
            (writer.header, [.header(BTSnoopFileHeader(datalink: .hciUART))]),
            (try writer.encode(records[0]), [.record(records[0])]),
            (bad, [.error(.includedLengthExceedsOriginal(offset: 16 + 28, included: 8, original: 7))]),
            (try writer.encode(records[2]), []),
        ]
        try Self.growingCapture.verify(stream: pairs, pairsStandAlone: false, randomChunkings: 50)
    }

    @Test func malformedHeaders() {
        var file = BTSnoopWriter().header
        file[0] = 0x42
        #expect(BTSnoopReader.parse(file) == BTSnoopParseResult(header: nil, records: [], error: .badIdentification))
        file = BTSnoopWriter().header
        file[11] = 2
        #expect(BTSnoopReader.parse(file).error == .unsupportedVersion(2))
        #expect(BTSnoopReader.parse(file).error?.offset == 8)
        file = BTSnoopWriter().header
        file[14] = 0x07; file[15] = 0xD1  // 2001, BlueZ monitor
        #expect(BTSnoopReader.parse(file).error == .unsupportedDatalink(2001))
        #expect(BTSnoopReader.parse(file).error?.offset == 12)
        #expect(BTSnoopReader.parse(BTSnoopWriter().header) == BTSnoopParseResult(header: BTSnoopFileHeader(datalink: .hciUART), records: [], error: nil))
    }

    @Test func malformedRecords() throws {
        let good = try BTSnoopWriter().encode(try Self.records()[0])  // 28 octets
        let header = BTSnoopWriter().header
        func record(original: UInt32, included: UInt32, data: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            ByteWriter.append(to: &out) { w in
                w.u32(original, endianness: .big)
                w.u32(included, endianness: .big)
            }
            out += [UInt8](repeating: 0, count: 16)
            return out + data
        }
        // Included 5 > original 4, in the second record (offset 16 + 28 = 44).
        var result = BTSnoopReader.parse(header + good + record(original: 4, included: 5, data: [1, 3, 0x0C, 0, 0]))
        #expect(result.records.count == 1)
        #expect(result.error == .includedLengthExceedsOriginal(offset: 44, included: 5, original: 4))
        // An empty H4 record has no indicator.
        result = BTSnoopReader.parse(header + record(original: 0, included: 0, data: []))
        #expect(result.error == .emptyRecord(offset: 16))
        // 0x07 is no H4 indicator; the offset is the octet's own (16 + 28 + 24).
        result = BTSnoopReader.parse(header + good + record(original: 2, included: 2, data: [0x07, 0]))
        #expect(result.error == .unknownIndicator(0x07, offset: 68))
        #expect(result.records.count == 1)
        // An included length no file could hold is "truncated", not a trap.
        result = BTSnoopReader.parse(header + record(original: .max, included: .max, data: [1]))
        #expect(result.error == .truncatedRecordData(offset: 16, includedLength: .max, available: 1))
    }

    @Test func randomGarbageNeverTrapsAndValidPrefixesReencodeExactly() throws {
        for seed in UInt64(1)...300 {
            var rng = SplitMix64(seed: seed)
            let datalink: BTSnoopDatalink = Bool.random(using: &rng) ? .hciUART : .hciUnencapsulated
            var file: [UInt8]
            switch seed % 3 {
            case 0:  // pure noise
                file = rng.bytes(Int.random(in: 0...200, using: &rng))
            case 1:  // a valid header, then noise
                file = BTSnoopFileHeader(datalink: datalink).bytes + rng.bytes(Int.random(in: 0...400, using: &rng))
            default:  // plausible records with small random lengths and random data
                file = BTSnoopFileHeader(datalink: datalink).bytes
                for _ in 0..<Int.random(in: 0...6, using: &rng) {
                    let included = UInt32.random(in: 0...12, using: &rng)
                    let original = included + UInt32.random(in: 0...2, using: &rng) &- 1
                    ByteWriter.append(to: &file) { w in
                        w.u32(original, endianness: .big)
                        w.u32(included, endianness: .big)
                    }
                    file += rng.bytes(16)
                    file += [UInt8.random(in: 0...6, using: &rng)] + rng.bytes(Int(included))
                }
                file = Array(file.prefix(Int.random(in: 16...file.count, using: &rng)))
            }
            let result = BTSnoopReader.parse(file)
            guard let header = result.header else {
                #expect(result.records.isEmpty)
                #expect(result.error != nil)
                continue
            }
            // Whatever was accepted writes back to the same octets.
            let writer = try BTSnoopWriter(datalink: header.datalink)
            let again = try writer.encodeFile(result.records)
            #expect(Array(file.prefix(again.count)) == again, "seed \(seed)")
            if result.error == nil { #expect(again.count == file.count, "seed \(seed)") }
        }
    }
}
