import ReflectorFirmware
import WireFormat

/// The LL control PDUs a board's link layer handles itself (Core 6.0 Vol 6 Part B §2.4.2):
/// termination, encryption start and pause, the feature exchange and the data length update.
/// The CS ones and LL_VERSION_IND are the CS controller's. The payload is the Opcode octet
/// followed by CtrData, every field little-endian, as on the air.
public enum LinkControlPDU: Sendable, Equatable {
    /// LL_TERMINATE_IND (0x02, §2.4.2.2): ErrorCode.
    case terminate(HCIStatus)
    /// LL_ENC_REQ (0x03, §2.4.2.3): Rand 8, EDIV 2, SKDm 8, IVm 4.
    case encryptionRequest(rand: UInt64, ediv: UInt16, skdm: UInt64, ivm: UInt32)
    /// LL_ENC_RSP (0x04, §2.4.2.4): SKDs 8, IVs 4.
    case encryptionResponse(skds: UInt64, ivs: UInt32)
    /// LL_START_ENC_REQ (0x05) and LL_START_ENC_RSP (0x06): no CtrData.
    case startEncryptionRequest, startEncryptionResponse
    /// LL_FEATURE_REQ (0x08), LL_FEATURE_RSP (0x09), LL_PERIPHERAL_FEATURE_REQ (0x0E): FeatureSet 8.
    case featureRequest(UInt64), featureResponse(UInt64), peripheralFeatureRequest(UInt64)
    /// LL_PAUSE_ENC_REQ (0x0A) and LL_PAUSE_ENC_RSP (0x0B): no CtrData.
    case pauseEncryptionRequest, pauseEncryptionResponse
    /// LL_REJECT_EXT_IND (0x11, §2.4.2.18): RejectOpcode, ErrorCode.
    case rejectExtended(opcode: UInt8, error: HCIStatus)
    /// LL_LENGTH_REQ (0x14) and LL_LENGTH_RSP (0x15, §2.4.2.21): MaxRxOctets, MaxRxTime,
    /// MaxTxOctets, MaxTxTime, two octets each.
    case lengthRequest(DataLengths), lengthResponse(DataLengths)

    /// The opcodes this type decodes; any other goes to the CS controller.
    public static let opcodes: Set<UInt8> = [0x02, 0x03, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0A, 0x0B, 0x0E, 0x11, 0x14, 0x15]

    public var opcode: UInt8 {
        switch self {
        case .terminate: 0x02
        case .encryptionRequest: 0x03
        case .encryptionResponse: 0x04
        case .startEncryptionRequest: 0x05
        case .startEncryptionResponse: 0x06
        case .featureRequest: 0x08
        case .featureResponse: 0x09
        case .pauseEncryptionRequest: 0x0A
        case .pauseEncryptionResponse: 0x0B
        case .peripheralFeatureRequest: 0x0E
        case .rejectExtended: 0x11
        case .lengthRequest: 0x14
        case .lengthResponse: 0x15
        }
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 23)
        w.u8(opcode)
        switch self {
        case .terminate(let e): w.u8(e.rawValue)
        case let .encryptionRequest(rand, ediv, skdm, ivm):
            w.u64(rand)
            w.u16(ediv)
            w.u64(skdm)
            w.u32(ivm)
        case let .encryptionResponse(skds, ivs):
            w.u64(skds)
            w.u32(ivs)
        case .startEncryptionRequest, .startEncryptionResponse, .pauseEncryptionRequest, .pauseEncryptionResponse: break
        case .featureRequest(let f), .featureResponse(let f), .peripheralFeatureRequest(let f): w.u64(f)
        case let .rejectExtended(op, e):
            w.u8(op)
            w.u8(e.rawValue)
        case .lengthRequest(let l), .lengthResponse(let l): l.encode(into: &w)
        }
        return w.bytes
    }

    /// Decodes a PDU whose opcode is in `opcodes`; a wrong length is an error (the link layer
    /// answers it with LL_UNKNOWN_RSP or a reject, never a trap).
    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> LinkControlPDU {
        var r = ByteReader(bytes)
        let op = try r.u8("Opcode")
        let pdu: LinkControlPDU
        switch op {
        case 0x02: pdu = .terminate(HCIStatus(rawValue: try r.u8("ErrorCode")) ?? .unspecifiedError)
        case 0x03: pdu = .encryptionRequest(rand: try r.u64("Rand"), ediv: try r.u16("EDIV"), skdm: try r.u64("SKDm"), ivm: try r.u32("IVm"))
        case 0x04: pdu = .encryptionResponse(skds: try r.u64("SKDs"), ivs: try r.u32("IVs"))
        case 0x05: pdu = .startEncryptionRequest
        case 0x06: pdu = .startEncryptionResponse
        case 0x08: pdu = .featureRequest(try r.u64("FeatureSet"))
        case 0x09: pdu = .featureResponse(try r.u64("FeatureSet"))
        case 0x0A: pdu = .pauseEncryptionRequest
        case 0x0B: pdu = .pauseEncryptionResponse
        case 0x0E: pdu = .peripheralFeatureRequest(try r.u64("FeatureSet"))
        case 0x11: pdu = .rejectExtended(opcode: try r.u8("RejectOpcode"), error: HCIStatus(rawValue: try r.u8("ErrorCode")) ?? .unspecifiedError)
        case 0x14: pdu = .lengthRequest(try DataLengths.decode(&r))
        case 0x15: pdu = .lengthResponse(try DataLengths.decode(&r))
        default: throw DecodeError.invalidValue(field: "Opcode", value: Int(op))
        }
        try r.expectEnd()
        return pdu
    }
}

/// The four limits of the data length update (Vol 6 Part B §4.5.10): octets and microseconds
/// each way. A board supports 251 octets (2120 µs on LE 1M) both ways.
public struct DataLengths: Sendable, Equatable {
    public var maxRxOctets: UInt16
    public var maxRxTime: UInt16
    public var maxTxOctets: UInt16
    public var maxTxTime: UInt16

    /// What a connection starts with (§4.5.10): 27 octets, 328 µs.
    public static let initial = DataLengths(maxRxOctets: 27, maxRxTime: 328, maxTxOctets: 27, maxTxTime: 328)
    /// The most a board supports.
    public static let supported = DataLengths(maxRxOctets: 251, maxRxTime: 2120, maxTxOctets: 251, maxTxTime: 2120)

    public init(maxRxOctets: UInt16, maxRxTime: UInt16, maxTxOctets: UInt16, maxTxTime: UInt16) {
        self.maxRxOctets = maxRxOctets
        self.maxRxTime = maxRxTime
        self.maxTxOctets = maxTxOctets
        self.maxTxTime = maxTxTime
    }

    func encode(into w: inout ByteWriter) {
        w.u16(maxRxOctets)
        w.u16(maxRxTime)
        w.u16(maxTxOctets)
        w.u16(maxTxTime)
    }

    static func decode(_ r: inout ByteReader) throws(DecodeError) -> DataLengths {
        DataLengths(maxRxOctets: try r.u16("MaxRxOctets"), maxRxTime: try r.u16("MaxRxTime"),
                    maxTxOctets: try r.u16("MaxTxOctets"), maxTxTime: try r.u16("MaxTxTime"))
    }

    /// The effective limits of a link (§4.5.10.1): each way, the lesser of what the sender may
    /// send and the receiver may take, never below 27 octets and 328 µs.
    func effective(with remote: DataLengths) -> DataLengths {
        DataLengths(maxRxOctets: max(27, min(maxRxOctets, remote.maxTxOctets)), maxRxTime: max(328, min(maxRxTime, remote.maxTxTime)),
                    maxTxOctets: max(27, min(maxTxOctets, remote.maxRxOctets)), maxTxTime: max(328, min(maxTxTime, remote.maxRxTime)))
    }
}
