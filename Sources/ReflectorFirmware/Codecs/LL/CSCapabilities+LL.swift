import WireFormat

/// The LL_CS_CAPABILITIES_REQ / LL_CS_CAPABILITIES_RSP body (opcodes 0x2E / 0x2F, 25 octets,
/// Core 6.0 Vol 6 Part B §2.4.2.x; layout as NimBLE PR #1765 `ble_ll_cs_capabilities_pdu_make`
/// packs it, reference §3.7):
///
/// ```
///  0 Mode_Types            1 RTT_Capability        2 RTT_AA_Only_N
///  3 RTT_Sounding_N        4 RTT_Random_Sequence_N 5-6 NADM_Sounding   7-8 NADM_Random
///  9 CS_SYNC_PHY bits     10 Num_Ant (b0-3) | Max_Ant_Paths (b4-7)
/// 11 Roles (b0-1) | No_FAE (b3) | Channel_Selection #3c (b4) | Sounding_PCT_Estimate (b5)
/// 12 Num_Configs         13-14 Max_Procedures   15 T_SW
/// 16-17 T_IP1 bits  18-19 T_IP2 bits  20-21 T_FCS bits  22-23 T_PM bits  24 TX_SNR << 1
/// ```
///
/// Core 6.3 must tell the peer about inline PCT transfer, but no public source shows where
/// [U]. This project's choice, so that two 6.3 controllers can agree on IPT timing: octet 11
/// bit 6 carries "inline PCT in the reflector" (an RFU bit a 6.0 peer ignores), and a 6.3
/// controller that supports IPT appends `T_IP2_IPT_Times 2 | T_SW_IPT 1` (28 octets; decoders
/// accept 25 or 28). The 2M RTT N values are not carried. Octet 11 bits 2 and 7 and bit 0 of
/// octet 24 are RFU: ignored on decode, written 0. Octets 0-9 and 16-23 are laid out as in the
/// HCI block and coded by `CSCapabilitiesFields`.
extension CSCapabilities {
    /// Octets of the Core 6.0 LL body.
    public static let llBodyLength = 25
    /// Octets of the body with this project's Core 6.3 IPT extension.
    public static let llExtendedBodyLength = 28

    /// Whether the LL body carries the IPT extension.
    var hasIPTFields: Bool { subfeatures.contains(.inlinePCTReflector) || tIP2IPTTimes.bits != 0 || tSWIPT != .none }

    /// Appends the 25-octet LL body (28 with the IPT extension).
    public func encodeLL(into w: inout ByteWriter) {
        CSCapabilitiesFields.encodeModesRTTAndNADM(self, into: &w)
        w.u8((numAntennas & 0x0F) | (maxAntennaPaths & 0x0F) << 4)
        // HCI subfeature bits 1...3 move to LL bits 3...5.
        let sub = UInt8(truncatingIfNeeded: subfeatures.rawValue & 0x000E) << 2
        let ipt: UInt8 = subfeatures.contains(.inlinePCTReflector) ? 0x40 : 0
        w.u8((roles.rawValue & 0x03) | sub | ipt)
        w.u8(numConfigSupported)
        w.u16(maxConsecutiveProcedures)
        w.u8(tSW.rawValue)
        CSCapabilitiesFields.encodeTimes(self, into: &w)
        w.u8(txSNR.rawValue << 1)
        if hasIPTFields {
            w.u16(tIP2IPTTimes.bits)
            w.u8(tSWIPT.rawValue)
        }
    }

    /// The LL body: 25 octets, or 28 with the IPT extension.
    public var llBody: [UInt8] {
        var w = ByteWriter(capacity: Self.llExtendedBodyLength)
        encodeLL(into: &w)
        return w.bytes
    }

    /// Decodes a 25-octet LL body (or 28 with the IPT extension); same value checks as the
    /// HCI decoder.
    public init(llBody bytes: some Collection<UInt8>) throws(DecodeError) {
        var r = ByteReader(bytes)
        self.init()
        try CSCapabilitiesFields.decodeModesRTTAndNADM(into: &self, from: &r)
        let antennas = try r.u8("Number_Of_Antennas")
        numAntennas = try CSCapabilitiesFields.count(antennas & 0x0F, "Number_Of_Antennas")
        maxAntennaPaths = try CSCapabilitiesFields.count(antennas >> 4, "Max_Number_Of_Antenna_Paths")
        let flags = try r.u8("Roles_Supported")
        roles = CSRoles(rawValue: flags & 0x03)
        subfeatures = CSSubfeatures(rawValue: UInt16((flags >> 2) & 0x0E))
        if flags & 0x40 != 0 { subfeatures.insert(.inlinePCTReflector) }
        numConfigSupported = try CSCapabilitiesFields.count(r.u8("Max_Number_Of_Configs"), "Max_Number_Of_Configs")
        maxConsecutiveProcedures = try r.u16("Max_Number_Of_Procedures")
        tSW = try r.value("T_SW")
        try CSCapabilitiesFields.decodeTimes(into: &self, from: &r)
        txSNR = TxSNRCapability(rawValue: (try r.u8("TX_SNR_Capability")) >> 1)
        if r.remaining >= Self.llExtendedBodyLength - Self.llBodyLength {
            tIP2IPTTimes = TimeSet(.tIP2, bits: try r.u16("T_IP2_IPT_Capability"))
            tSWIPT = try r.value("T_SW_IPT")
        }
        try r.expectEnd()
    }
}
