import ReflectorFirmware

/// The Ranging Service from the peer: ranging data bodies (`RangingData`), the control point
/// (`RASControlPointCommand`, `RASControlPointResponse`) and segment reassembly (`RASReassembler`).
///
/// Input: a mode octet, then per mode: 0, 1, 2, 3 a ranging data body (mode bit 0: the
/// sender is the initiator; bit 1: PCTs in mode-1/3 steps; the next octet, if below 5, overrides
/// N_AP); 4 a control point command, 5 a response; 6 and 7 notifications as `length (2, LE) |
/// octets` into a reassembler (7: a body limit of the next 16-bit value).
///
/// Checks: ranging data re-encodes to as many octets, which decode to the same value; the
/// control point re-encodes to the very same octets; the reassembler returns exactly the
/// octets of the segments since the last first segment, within its limit, and is idle after an
/// error; a reassembled body decodes without trapping.
enum RASTarget {
    static let target = FuzzTarget("ras", "RAS: ranging data, control point, segment reassembly", seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        let mode = input.byte()
        switch mode & 7 {
        case 0...3:
            let paths = input.byte()
            let body = input.rest()
            let role: CSRole = mode & 1 != 0 ? .initiator : .reflector
            guard let data = try? RangingData.decode(body, senderRole: role, sequencePCT: mode & 2 != 0,
                                                     antennaPaths: paths < 5 ? Int(paths) : nil) else { return }
            // Not the very same octets: an aborted step's RFU Step_Mode bits are ignored and written 0.
            let again = data.encode()
            require(again.count == body.count, "ranging data re-encodes to another length: \(hex(body)) -> \(hex(again))")
            require((try? RangingData.decode(again, senderRole: role, sequencePCT: mode & 2 != 0, antennaPaths: paths < 5 ? Int(paths) : nil)) == data,
                    "ranging data does not decode from its own encoding: \(hex(body)) -> \(hex(again))")
        case 4:
            let body = input.rest()
            if let c = try? RASControlPointCommand.decode(body) { require(c.encode() == body, "control point command re-encodes to other octets") }
        case 5:
            let body = input.rest()
            if let r = try? RASControlPointResponse.decode(body) { require(r.encode() == body, "control point response re-encodes to other octets") }
        default:
            var reassembler = RASReassembler()
            if mode & 7 == 7 { reassembler.maxBodyLength = Int(input.byte()) | Int(input.byte()) << 8 }
            var expected: [UInt8]?
            for segment in input.chunks() {
                let header = segment.first.map(RASSegmentationHeader.init(octet:))
                let wasInProgress = reassembler.inProgress
                do {
                    let body = try reassembler.add(segment)
                    if header?.isFirst == true { expected = [] }
                    expected? += segment.dropFirst()
                    require(header?.isFirst == true || wasInProgress, "a segment was taken with no body in progress")
                    if let body {
                        require(body == expected, "reassembled body is not the segments' octets")
                        require(body.count <= reassembler.maxBodyLength, "body over the limit")
                        require(!reassembler.inProgress, "reassembler still in progress after the last segment")
                        _ = try? RangingData.decode(body)
                        _ = try? RangingData.decode(body, senderRole: .initiator, sequencePCT: true)
                        expected = nil
                    }
                } catch {
                    require(!reassembler.inProgress && reassembler.body.isEmpty, "reassembler not idle after \(error)")
                    expected = nil
                }
            }
        }
    }

    static func seeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for traffic in SeedTraffic.loopbacks {
            for segments in traffic.rangingSegments.prefix(1) {
                var r = RASReassembler()
                if let body = segments.compactMap({ try? r.add($0) }).first { out.append([0, 0xFF] + body) }
                out.append([6] + FuzzInput.chunks(segments))
            }
        }
        for c: RASControlPointCommand in [.getRangingData(rangingCounter: 5), .ackRangingData(rangingCounter: 0xFFF),
                                          .retrieveLostSegments(rangingCounter: 2, firstSegment: 1, lastSegment: 3), .abort, .setFilter(0x1F)] {
            out.append([4] + c.encode())
        }
        for r: RASControlPointResponse in [.completeRangingData(rangingCounter: 7), .completeLostSegments(rangingCounter: 1, firstSegment: 0, lastSegment: 2),
                                           .responseCode(.success)] {
            out.append([5] + r.encode())
        }
        return out
    }
}
