import WireFormat

/// The fields of a CS configuration that HCI (LE CS Create Config and LE CS Config Complete,
/// Core 6.0 Vol 4 Part E §7.8.137 and §7.7.65.42) and the LL (LL_CS_CONFIG_REQ, Vol 6 Part B
/// §2.4.2.45) both carry, each written and checked in this one place; the two layouts only
/// order and pack them differently (see `CSConfiguration+HCI.swift` and `LLCSConfigReq`):
///
/// - the mode and step run, the same six octets in both:
///   `Main_Mode_Type | Sub_Mode_Type (0xFF none) | Min_Main_Mode_Steps | Max_Main_Mode_Steps |
///   Main_Mode_Repetition | Mode_0_Steps`;
/// - the channel map run, the same eleven octets: `Channel_Map 10 | Channel_Map_Repetition`;
/// - the channel selection, whose type, shape and jump HCI gives an octet each and the LL packs
///   as `type (b0-3) | shape (b4-7), jump`;
/// - CS_Enhancements_1, bit 0 Inline PCT Transfer (Core 6.3; other bits RFU, ignored).
///
/// Decoding checks each value against the spec's ranges (`CSConfiguration+Ranges.swift`), in
/// layout order, with `.invalidValue` naming the field. Mode 0 is never a main or sub mode.
/// The encoders are public for the firmware test image's Configuration payload, which lays the
/// same two runs out again (`FirmwareHarness.TestVector`).
public enum CSConfigurationFields {
    // MARK: Modes and steps

    public static func encodeModes(_ c: CSConfiguration, into w: inout ByteWriter) {
        w.u8(c.mainMode.rawValue)
        w.u8(c.subMode?.rawValue ?? 0xFF)
        w.u8(c.minMainModeSteps)
        w.u8(c.maxMainModeSteps)
        w.u8(c.mainModeRepetition)
        w.u8(c.mode0Steps)
    }

    static func decodeModes(into c: inout CSConfiguration, from r: inout ByteReader) throws(DecodeError) {
        let mainRaw = try r.u8("Main_Mode_Type")
        guard mainRaw >= 1, let main = CSMode(rawValue: mainRaw) else {
            throw .invalidValue(field: "Main_Mode_Type", value: Int(mainRaw))
        }
        let subRaw = try r.u8("Sub_Mode_Type")
        var sub: CSMode? = nil
        if subRaw != 0xFF {
            guard subRaw >= 1, let s = CSMode(rawValue: subRaw) else {
                throw .invalidValue(field: "Sub_Mode_Type", value: Int(subRaw))
            }
            sub = s
        }
        c.mainMode = main
        c.subMode = sub
        c.minMainModeSteps = try r.u8("Min_Main_Mode_Steps")
        c.maxMainModeSteps = try r.u8("Max_Main_Mode_Steps")
        c.mainModeRepetition = try checked(r.u8("Main_Mode_Repetition"), CSConfiguration.mainModeRepetitionRange, "Main_Mode_Repetition")
        c.mode0Steps = try checked(r.u8("Mode_0_Steps"), CSConfiguration.mode0StepsRange, "Mode_0_Steps")
    }

    // MARK: Channel map

    public static func encodeChannelMap(_ c: CSConfiguration, into w: inout ByteWriter) {
        w.octets(c.channelMap.wire)
        w.u8(c.channelMapRepetition)
    }

    static func decodeChannelMap(into c: inout CSConfiguration, from r: inout ByteReader) throws(DecodeError) {
        c.channelMap = ChannelMap(wire: try r.octets(10, "Channel_Map"))
        c.channelMapRepetition = try checked(r.u8("Channel_Map_Repetition"), CSConfiguration.channelMapRepetitionRange, "Channel_Map_Repetition")
    }

    // MARK: Channel selection

    /// Channel_Selection_Type (0 #3b, 1 #3c), Ch3c_Shape and Ch3c_Jump. For #3b, where both are
    /// unused, shape 0 (hat) and jump 2: valid values, which receivers ignore.
    static func channelSelectionFields(_ selection: ChannelSelectionAlgorithm) -> (type: UInt8, shape: UInt8, jump: UInt8) {
        switch selection {
        case .algorithm3b: return (0, Ch3cShape.hat.rawValue, CSConfiguration.ch3cJumpRange.lowerBound)
        case let .algorithm3c(shape, jump): return (1, shape.rawValue, jump)
        }
    }

    /// The algorithm of `type`, with `shape` and `jump` checked for #3c and ignored for #3b.
    static func channelSelection(type: UInt8, shape: UInt8, jump: UInt8) throws(DecodeError) -> ChannelSelectionAlgorithm {
        switch type {
        case 0:
            return .algorithm3b
        case 1:
            guard let s = Ch3cShape(rawValue: shape) else { throw .invalidValue(field: "Ch3c_Shape", value: Int(shape)) }
            return .algorithm3c(shape: s, jump: try checked(jump, CSConfiguration.ch3cJumpRange, "Ch3c_Jump"))
        default:
            throw .invalidValue(field: "Channel_Selection_Type", value: Int(type))
        }
    }

    // MARK: Enhancements

    static func enhancementsOctet(_ c: CSConfiguration) -> UInt8 { c.inlinePCT ? 0x01 : 0x00 }

    static func decodeEnhancements(into c: inout CSConfiguration, from r: inout ByteReader) throws(DecodeError) {
        c.inlinePCT = try r.u8("CS_Enhancements_1") & 0x01 != 0
    }

    /// `v`, or `.invalidValue` naming `field` when it is outside `range`.
    static func checked(_ v: UInt8, _ range: ClosedRange<UInt8>, _ field: StaticString) throws(DecodeError) -> UInt8 {
        guard range.contains(v) else { throw .invalidValue(field: field, value: Int(v)) }
        return v
    }
}
