import WireFormat

/// The 24-octet block that LE CS Create Config (Core 6.0 Vol 4 Part E §7.8.137) and LE CS Config
/// Complete (§7.7.65.42) share, from Main_Mode_Type to CS_Enhancements_1:
///
/// `Main_Mode_Type | Sub_Mode_Type | Min_Main_Mode_Steps | Max_Main_Mode_Steps |
/// Main_Mode_Repetition | Mode_0_Steps | Role | RTT_Type | CS_SYNC_PHY | Channel_Map 10 |
/// Channel_Map_Repetition | Channel_Selection_Type | Ch3c_Shape | Ch3c_Jump | CS_Enhancements_1`
///
/// Sub_Mode_Type 0xFF is "none" (`subMode == nil`). For algorithm #3b the encoder writes
/// Ch3c_Shape 0 and Ch3c_Jump 2 (ignored by the receiver, but valid values) and the decoder
/// ignores both. CS_Enhancements_1 bit 0 is `inlinePCT` (Core 6.3); its other bits are RFU
/// and ignored.
extension CSConfiguration {
    static let hciFieldsLength = 24

    func encodeHCIFields(into w: inout ByteWriter) {
        w.u8(mainMode.rawValue)
        w.u8(subMode?.rawValue ?? 0xFF)
        w.u8(minMainModeSteps)
        w.u8(maxMainModeSteps)
        w.u8(mainModeRepetition)
        w.u8(mode0Steps)
        w.u8(role.rawValue)
        w.u8(rttType.rawValue)
        w.u8(csSyncPHY.rawValue)
        w.octets(channelMap.wire)
        w.u8(channelMapRepetition)
        w.u8(channelSelection.hciType)
        switch channelSelection {
        case .algorithm3b:
            w.u8(Ch3cShape.hat.rawValue)
            w.u8(2)
        case let .algorithm3c(shape, jump):
            w.u8(shape.rawValue)
            w.u8(jump)
        }
        w.u8(inlinePCT ? 0x01 : 0x00)
    }

    static func decodeHCIFields(configID: UInt8, from r: inout ByteReader) throws(DecodeError) -> CSConfiguration {
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
        let minSteps = try r.u8("Min_Main_Mode_Steps")
        let maxSteps = try r.u8("Max_Main_Mode_Steps")
        let repetition = try r.u8("Main_Mode_Repetition")
        guard repetition <= 3 else { throw .invalidValue(field: "Main_Mode_Repetition", value: Int(repetition)) }
        let mode0 = try r.u8("Mode_0_Steps")
        guard (1...3).contains(mode0) else { throw .invalidValue(field: "Mode_0_Steps", value: Int(mode0)) }
        let roleRaw = try r.u8("Role")
        guard let role = CSRole(rawValue: roleRaw) else { throw .invalidValue(field: "Role", value: Int(roleRaw)) }
        let rttRaw = try r.u8("RTT_Type")
        guard let rtt = RTTType(rawValue: rttRaw) else { throw .invalidValue(field: "RTT_Type", value: Int(rttRaw)) }
        let phyRaw = try r.u8("CS_SYNC_PHY")
        guard let phy = CSSyncPHY(rawValue: phyRaw) else { throw .invalidValue(field: "CS_SYNC_PHY", value: Int(phyRaw)) }
        let map = ChannelMap(wire: try r.octets(10, "Channel_Map"))
        let mapRepetition = try r.u8("Channel_Map_Repetition")
        guard mapRepetition >= 1 else { throw .invalidValue(field: "Channel_Map_Repetition", value: 0) }
        let selType = try r.u8("Channel_Selection_Type")
        let shapeRaw = try r.u8("Ch3c_Shape")
        let jump = try r.u8("Ch3c_Jump")
        let selection: ChannelSelectionAlgorithm
        switch selType {
        case 0:
            selection = .algorithm3b
        case 1:
            guard let shape = Ch3cShape(rawValue: shapeRaw) else { throw .invalidValue(field: "Ch3c_Shape", value: Int(shapeRaw)) }
            guard (2...8).contains(jump) else { throw .invalidValue(field: "Ch3c_Jump", value: Int(jump)) }
            selection = .algorithm3c(shape: shape, jump: jump)
        default:
            throw .invalidValue(field: "Channel_Selection_Type", value: Int(selType))
        }
        let enhancements = try r.u8("CS_Enhancements_1")
        return CSConfiguration(
            configID: configID, mainMode: main, subMode: sub, minMainModeSteps: minSteps, maxMainModeSteps: maxSteps,
            mainModeRepetition: repetition, mode0Steps: mode0, role: role, rttType: rtt, csSyncPHY: phy,
            channelMap: map, channelMapRepetition: mapRepetition, channelSelection: selection,
            inlinePCT: enhancements & 0x01 != 0)
    }
}

extension ByteReader {
    /// Config_ID, 0...3.
    mutating func configID() throws(DecodeError) -> UInt8 {
        let v = try u8("Config_ID")
        guard v <= 3 else { throw .invalidValue(field: "Config_ID", value: Int(v)) }
        return v
    }
}
