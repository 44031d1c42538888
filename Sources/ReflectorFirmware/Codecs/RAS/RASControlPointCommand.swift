import WireFormat

/// A command the client writes to the RAS Control Point, opcode then parameters
/// (RAS 1.0 Table 3.10; nRF `ras_internal.h`, `ras_rrsp.c`). The reflector, as RAS server,
/// decodes these. The parameter layouts of Retrieve Lost Segments (counter, first and last
/// segment index) and Set Filter (2 octets) are from the 4-octet maximum in nRF and are [U].
public enum RASControlPointCommand: Sendable, Equatable {
    /// 0x00: send the ranging data of `rangingCounter` on On-demand Ranging Data.
    case getRangingData(rangingCounter: UInt16)
    /// 0x01: the client has received the ranging data of `rangingCounter`.
    case ackRangingData(rangingCounter: UInt16)
    /// 0x02: resend segments `firstSegment...lastSegment` of `rangingCounter`.
    case retrieveLostSegments(rangingCounter: UInt16, firstSegment: UInt8, lastSegment: UInt8)
    /// 0x03: abort the current operation.
    case abort
    /// 0x04: filter the ranging data (the filter word).
    case setFilter(UInt16)

    public var opcode: UInt8 {
        switch self {
        case .getRangingData: return 0x00
        case .ackRangingData: return 0x01
        case .retrieveLostSegments: return 0x02
        case .abort: return 0x03
        case .setFilter: return 0x04
        }
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 5)
        w.u8(opcode)
        switch self {
        case let .getRangingData(c), let .ackRangingData(c): w.u16(c)
        case let .retrieveLostSegments(c, first, last):
            w.u16(c)
            w.u8(first)
            w.u8(last)
        case .abort: break
        case let .setFilter(f): w.u16(f)
        }
        return w.bytes
    }

    /// Parses a written value; an unknown opcode is `.invalidValue(field: "Op_Code")` (the
    /// server answers it with `opcodeNotSupported`), a wrong length `.truncated`/`.trailingBytes`.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> RASControlPointCommand {
        try ByteReader.whole(bytes) { r throws(DecodeError) in
            let op = try r.u8("Op_Code")
            switch op {
            case 0x00: return .getRangingData(rangingCounter: try r.u16("Ranging_Counter"))
            case 0x01: return .ackRangingData(rangingCounter: try r.u16("Ranging_Counter"))
            case 0x02:
                return .retrieveLostSegments(rangingCounter: try r.u16("Ranging_Counter"), firstSegment: try r.u8("First_Segment_Index"),
                                                lastSegment: try r.u8("Last_Segment_Index"))
            case 0x03: return .abort
            case 0x04: return .setFilter(try r.u16("Filter"))
            default: throw .invalidValue(field: "Op_Code", value: Int(op))
            }
        }
    }
}
