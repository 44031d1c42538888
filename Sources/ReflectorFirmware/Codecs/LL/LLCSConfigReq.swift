import WireFormat

/// LL_CS_CONFIG_REQ (opcode 0x30, 27 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.45, best
/// knowledge): the Channel Sounding Configuration procedure's request, which creates
/// (Action = 1) or removes (Action = 0) CS configuration Config_ID in the peer's controller
/// after LE CS Create Config / Remove Config.
///
/// Layout (NimBLE PR #1765 `ble_ll_cs_config_req_make` / `ble_ll_cs_rx_config_req`; Telink's
/// `rf_packet_ll_cs_config_req_t` agrees field for field):
///
/// ```
///  0 Config_ID (b0-5) | Action (b6-7)
///  1-10 Channel_Map (channel k = octet k/8 bit k%8)   11 Channel_Map_Repetition
/// 12 Main_Mode_Type  13 Sub_Mode_Type (0xFF none)  14 Min_Main_Mode_Steps  15 Max_Main_Mode_Steps
/// 16 Main_Mode_Repetition  17 Mode_0_Steps
/// 18 CS_SYNC_PHY as a one-bit mask (0x01 1M, 0x02 2M, 0x04 2M 2BT; HCI uses 1, 2, 3)
/// 19 RTT_Type (b0-3) | Role (b4-5; b6-7 RFU)
/// 20 Channel_Selection_Type (b0-3) | Ch3c_Shape (b4-7)   21 Ch3c_Jump
/// 22 T_IP1 index  23 T_IP2 index  24 T_FCS index  25 T_PM index   (see `CSTiming(llIndices:)`)
/// 26 RFU in Core 6.0; bit 0 read as CS_Enhancements_1 "Inline PCT Transfer" [U]
/// ```
///
/// **Role.** The PDU carries the *sender's* role; the receiver stores the opposite one
/// (NimBLE: `role = (~dptr[19] >> 4) & 1`; Zephyr's controller: "the Initiator sends its own
/// role ... the Reflector must store the complementary role"). `configuration.role` is
/// therefore the sender's; `receiverConfiguration` gives the receiver's view. Telink gives the
/// role 2 bits (b4-5) and NimBLE reads only b4: the decoder reads b4-5 and rejects 2 and 3.
///
/// **Remove.** With Action = 0 every octet after the first is RFU (NimBLE writes zeros): the
/// encoder writes zeros and the decoder ignores their contents.
///
/// **Octet 26.** Core 6.0 has it RFU; Core 6.3 adds CS_Enhancements_1 to HCI Create Config and
/// must tell the peer somehow, so bit 0 here is taken as the Inline PCT request. Unconfirmed by
/// any public LL source [U]; a 6.0 peer writes 0 (no IPT) and ignores the bit.
///
/// **#3b.** Ch3c_Shape and Ch3c_Jump are unused with algorithm #3b: the encoder writes shape 0
/// and jump 2 (valid values, as the HCI encoder does) and the decoder ignores both.
///
/// The channel map, mode and channel selection fields are coded by `CSConfigurationFields`,
/// which the HCI form shares; the rest are this PDU's own packing.
///
/// **T_SW** is not carried (it follows from the ACI and both capabilities): `create` stores
/// `timing.tSW = 0` so an encode/decode round trip is exact.
public struct LLCSConfigReq: LLControlBody {
    public static let opcode = LLControlOpcode.csConfigReq

    /// Action, bits 6-7 of octet 0.
    public enum Action: UInt8, Sendable, Equatable {
        case remove = 0
        case create = 1
    }

    /// Config_ID, 0...3.
    public let configID: UInt8
    /// For Action = create, the configuration as the sender holds it (`role` is the sender's);
    /// `nil` for Action = remove.
    public let configuration: CSConfiguration?

    private init(configID: UInt8, configuration: CSConfiguration?) {
        self.configID = configID
        self.configuration = configuration
    }

    /// A request removing configuration `configID`; `nil` unless 0...3.
    public static func remove(configID: UInt8) -> LLCSConfigReq? {
        guard CSConfiguration.configIDRange.contains(configID) else { return nil }
        return LLCSConfigReq(configID: configID, configuration: nil)
    }

    /// A request creating `configuration` in the peer (`configuration.role` = the sender's
    /// role). `nil` if the LL cannot carry it: Config_ID above 3, mode 0 as main or sub mode,
    /// Mode_0_Steps outside 1...3, Main_Mode_Repetition above 3, Channel_Map_Repetition 0,
    /// a #3c jump outside 2...8, or a T_IP1/T_IP2/T_FCS/T_PM value outside its table.
    public static func create(_ configuration: CSConfiguration) -> LLCSConfigReq? {
        var c = configuration
        guard CSConfiguration.configIDRange.contains(c.configID), c.mainMode != .mode0, c.subMode != .mode0,
              CSConfiguration.mode0StepsRange.contains(c.mode0Steps),
              CSConfiguration.mainModeRepetitionRange.contains(c.mainModeRepetition),
              CSConfiguration.channelMapRepetitionRange.contains(c.channelMapRepetition),
              c.timing.llTimeIndices != nil else { return nil }
        if case let .algorithm3c(_, jump) = c.channelSelection, !CSConfiguration.ch3cJumpRange.contains(jump) { return nil }
        c.timing.tSW = 0
        return LLCSConfigReq(configID: c.configID, configuration: c)
    }

    public var action: Action { configuration == nil ? .remove : .create }

    /// The configuration as the receiver stores it: the sender's, with the role flipped.
    public var receiverConfiguration: CSConfiguration? {
        guard var c = configuration else { return nil }
        c.role = c.role == .initiator ? .reflector : .initiator
        return c
    }

    public func encodeBody(into w: inout ByteWriter) {
        guard let c = configuration else {
            w.u8(configID & 0x3F)
            for _ in 0..<26 { w.u8(0) }
            return
        }
        w.u8((configID & 0x3F) | Action.create.rawValue << 6)
        CSConfigurationFields.encodeChannelMap(c, into: &w)
        CSConfigurationFields.encodeModes(c, into: &w)
        w.u8(c.csSyncPHY.llBit)
        w.u8((c.rttType.rawValue & 0x0F) | c.role.rawValue << 4)
        let selection = CSConfigurationFields.channelSelectionFields(c.channelSelection)
        w.u8(selection.type | selection.shape << 4)
        w.u8(selection.jump)
        // `create` guarantees the indices exist; the fallback (mandatory values) is unreachable.
        let t = c.timing.llTimeIndices ?? (7, 7, 9, 2)
        w.u8(t.tIP1)
        w.u8(t.tIP2)
        w.u8(t.tFCS)
        w.u8(t.tPM)
        w.u8(CSConfigurationFields.enhancementsOctet(c))
    }

    public static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSConfigReq {
        let (id, actionRaw) = try r.llConfigIDOctet()
        let action = try Action(decoding: actionRaw, "Action")
        if action == .remove {
            try r.skip(26, "RFU")
            return LLCSConfigReq(configID: id, configuration: nil)
        }
        var c = CSConfiguration(configID: id)
        try CSConfigurationFields.decodeChannelMap(into: &c, from: &r)
        try CSConfigurationFields.decodeModes(into: &c, from: &r)
        let phyBit = try r.u8("CS_SYNC_PHY")
        switch phyBit {
        case CSSyncPHY.le1M.llBit: c.csSyncPHY = .le1M
        case CSSyncPHY.le2M.llBit: c.csSyncPHY = .le2M
        case CSSyncPHY.le2M2BT.llBit: c.csSyncPHY = .le2M2BT
        default: throw .invalidValue(field: "CS_SYNC_PHY", value: Int(phyBit))
        }
        let rttRole = try r.u8("RTT_Type")
        let rtt = try RTTType(decoding: rttRole & 0x0F, "RTT_Type")
        let role = try CSRole(decoding: (rttRole >> 4) & 0x03, "Role")
        (c.rttType, c.role) = (rtt, role)
        let selection = try r.u8("Channel_Selection_Type")
        let jump = try r.u8("Ch3c_Jump")
        c.channelSelection = try CSConfigurationFields.channelSelection(type: selection & 0x0F, shape: selection >> 4, jump: jump)
        let ip1 = try r.u8("T_IP1")
        let ip2 = try r.u8("T_IP2")
        let fcs = try r.u8("T_FCS")
        let pm = try r.u8("T_PM")
        c.timing = try CSTiming(llIndices: ip1, tIP2: ip2, tFCS: fcs, tPM: pm)
        try CSConfigurationFields.decodeEnhancements(into: &c, from: &r)
        return LLCSConfigReq(configID: id, configuration: c)
    }
}
