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
/// and ignored. The fields the LL form shares are coded by `CSConfigurationFields`; Role,
/// RTT_Type and CS_SYNC_PHY are the HCI values, an octet each.
extension CSConfiguration {
    static let hciFieldsLength = 24

    func encodeHCIFields(into w: inout ByteWriter) {
        CSConfigurationFields.encodeModes(self, into: &w)
        w.u8(role.rawValue)
        w.u8(rttType.rawValue)
        w.u8(csSyncPHY.rawValue)
        CSConfigurationFields.encodeChannelMap(self, into: &w)
        let selection = CSConfigurationFields.channelSelectionFields(channelSelection)
        w.u8(selection.type)
        w.u8(selection.shape)
        w.u8(selection.jump)
        w.u8(CSConfigurationFields.enhancementsOctet(self))
    }

    static func decodeHCIFields(configID: UInt8, from r: inout ByteReader) throws(DecodeError) -> CSConfiguration {
        var c = CSConfiguration(configID: configID)
        try CSConfigurationFields.decodeModes(into: &c, from: &r)
        (c.role, c.rttType, c.csSyncPHY) = (try r.value("Role"), try r.value("RTT_Type"), try r.value("CS_SYNC_PHY"))
        try CSConfigurationFields.decodeChannelMap(into: &c, from: &r)
        let type = try r.u8("Channel_Selection_Type")
        let shape = try r.u8("Ch3c_Shape")
        c.channelSelection = try CSConfigurationFields.channelSelection(type: type, shape: shape, jump: try r.u8("Ch3c_Jump"))
        try CSConfigurationFields.decodeEnhancements(into: &c, from: &r)
        return c
    }
}
