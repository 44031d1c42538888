import BLEHost
import ReflectorFirmware

/// L2CAP reassembly on the host side (`L2CAPReassembler`): ACL fragments with any boundary
/// flags and any split, as a controller or a misbehaving peer delivers them.
///
/// Input: records `tag | length (2 octets, LE) | octets`, each one ACL packet's data with the
/// Packet_Boundary_Flag tag % 4.
///
/// Checks: every frame is exactly the octets fed since its start fragment, within the payload
/// limit; after a drop nothing of the dropped frame is kept; a packet with the reserved
/// boundary flag is dropped alone, the frame in progress kept.
enum L2CAPTarget {
    static let limit = 600

    static let target = FuzzTarget("l2cap", "L2CAPReassembler: ACL fragments with any boundary flags and split into L2CAP frames",
                                   seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        var r = L2CAPReassembler(maximumPayload: limit)
        var current: [UInt8]?
        for (tag, octets) in input.records() {
            let boundary = tag & 0b11
            switch boundary {
            case 0b00, 0b10: current = octets
            case 0b01: if current != nil { current! += octets }
            default: break
            }
            for outcome in r.add(boundary: boundary, octets) {
                switch outcome {
                case .frame(let f):
                    require(f.payload.count <= limit, "a frame over the limit: \(f.payload.count)")
                    require(f.encode() == current, "a frame that is not the octets fed since its start")
                    current = nil
                case .dropped(.startInterruptedFrame), .dropped(.invalidBoundary):
                    // The new start is the frame now; a reserved boundary flag drops only its packet.
                    continue
                case .dropped:
                    current = nil
                case .incomplete:
                    require(r.isInsideFrame, "incomplete, but no frame in progress")
                }
            }
            require(r.isInsideFrame == (current != nil), "the reassembler and the model disagree on a frame in progress")
        }
    }

    /// Frames of several sizes in 27- and 251-octet fragments, a continuation with no start, an
    /// interrupted frame.
    static func seeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for size in [0, 3, 23, 100, 251, 517] {
            let frame = L2CAPFrame(channel: 4, payload: (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }).encode()!
            for length in [27, 251] {
                var records: [(tag: UInt8, octets: [UInt8])] = []
                var i = 0
                while i < frame.count {
                    records.append((i == 0 ? 0b10 : 0b01, Array(frame[i..<min(frame.count, i + length)])))
                    i += length
                }
                out.append(FuzzInput.records(records))
            }
        }
        out.append(FuzzInput.records([(0b01, [1, 2]), (0b10, [10, 0, 4, 0, 1]), (0b00, [1, 0, 6, 0, 9])]))
        return out
    }
}
