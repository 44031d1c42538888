import WireFormat

/// A response the server indicates on the RAS Control Point, opcode then parameters
/// (RAS 1.0 Table 3.11; nRF `ras_internal.h`, `ras_rrsp.c`). The Complete Lost Segment
/// Response layout (counter, first and last segment index; 4 octets) is [U].
public enum RASControlPointResponse: Sendable, Equatable {
    /// 0x00: all segments of `rangingCounter` were sent.
    case completeRangingData(rangingCounter: UInt16)
    /// 0x01: the requested lost segments were sent.
    case completeLostSegments(rangingCounter: UInt16, firstSegment: UInt8, lastSegment: UInt8)
    /// 0x02: the outcome of a command.
    case responseCode(RASResponseCode)

    public var opcode: UInt8 {
        switch self {
        case .completeRangingData: return 0x00
        case .completeLostSegments: return 0x01
        case .responseCode: return 0x02
        }
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 5)
        w.u8(opcode)
        switch self {
        case let .completeRangingData(c): w.u16(c)
        case let .completeLostSegments(c, first, last):
            w.u16(c)
            w.u8(first)
            w.u8(last)
        case let .responseCode(code): w.u8(code.rawValue)
        }
        return w.bytes
    }

    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> RASControlPointResponse {
        try ByteReader.whole(bytes) { r throws(DecodeError) in
            let op = try r.u8("Op_Code")
            switch op {
            case 0x00: return .completeRangingData(rangingCounter: try r.u16("Ranging_Counter"))
            case 0x01:
                return .completeLostSegments(rangingCounter: try r.u16("Ranging_Counter"), firstSegment: try r.u8("First_Segment_Index"),
                                                 lastSegment: try r.u8("Last_Segment_Index"))
            case 0x02:
                return .responseCode(try r.value("Response_Code"))
            default: throw .invalidValue(field: "Op_Code", value: Int(op))
            }
        }
    }
}
