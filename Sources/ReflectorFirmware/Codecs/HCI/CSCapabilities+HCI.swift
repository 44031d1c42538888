import WireFormat

/// The HCI form of the capabilities block (Core 6.0 Vol 4 Part E §7.8.130 field order; v2
/// extras from Core 6.3 per Zephyr `hci_types.h` and Bumble PR #953), in one of three layouts
/// (`CapabilitiesLayout`: 28, 31 or 34 octets):
///
/// ```
///  0 Num_Config_Supported  1-2 Max_Consecutive_Procedures_Supported  3 Num_Antennas_Supported
///  4 Max_Antenna_Paths_Supported  5 Roles_Supported  6-15 modes, RTT, NADM, CS_SYNC PHYs
/// 16-17 Subfeatures_Supported  18-25 T_IP1, T_IP2, T_FCS, T_PM bitmaps  26 T_SW_Time_Supported
/// 27 TX_SNR_Capability  | v2: 28-29 T_IP2_IPT_Times_Supported  30 T_SW_IPT_Time_Supported
///                       | Bumble's v2: 31 RTT_2M_AA_Only_N  32 RTT_2M_Sounding_N  33 RTT_2M_Random_Sequence_N
/// ```
///
/// The runs the LL body shares (octets 6-15 and 18-25) are coded by `CSCapabilitiesFields`.
extension CSCapabilities {
    /// Appends the block in `layout`.
    public func encodeHCI(into w: inout ByteWriter, layout: CapabilitiesLayout) {
        w.u8(numConfigSupported)
        w.u16(maxConsecutiveProcedures)
        w.u8(numAntennas)
        w.u8(maxAntennaPaths)
        w.u8(roles.rawValue)
        CSCapabilitiesFields.encodeModesRTTAndNADM(self, into: &w)
        w.u16(subfeatures.rawValue)
        CSCapabilitiesFields.encodeTimes(self, into: &w)
        w.u8(tSW.rawValue)
        w.u8(txSNR.rawValue)
        if layout == .v1 { return }
        w.u16(tIP2IPTTimes.bits)
        w.u8(tSWIPT.rawValue)
        if layout == .v2 { return }
        w.u8(rtt2MAccessAddressOnlyN)
        w.u8(rtt2MSoundingN)
        w.u8(rtt2MRandomSequenceN)
    }

    /// The block in `layout`: 28, 31 or 34 octets.
    public func hciBytes(layout: CapabilitiesLayout) -> [UInt8] {
        var w = ByteWriter(capacity: layout.byteCount)
        encodeHCI(into: &w, layout: layout)
        return w.bytes
    }

    /// Decodes a block of exactly `layout.byteCount` octets.
    ///
    /// Throws `truncated`/`trailingBytes` on a wrong length and `invalidValue` for
    /// Num_Config_Supported, Num_Antennas_Supported or Max_Antenna_Paths_Supported outside
    /// 1...4 and for T_SW/T_SW_IPT outside {0, 1, 2, 4, 10}. Fields absent from the layout
    /// take the defaults of `init` (mandatory times only, 0 µs switch, N values 0).
    public init(hci bytes: some Collection<UInt8>, layout: CapabilitiesLayout) throws(DecodeError) {
        var r = ByteReader(bytes)
        try self.init(reading: &r, layout: layout)
        try r.expectEnd()
    }

    /// Decodes a block whose layout follows from its length: 28 (v1), 31 (v2 Zephyr/Nordic)
    /// or 34 octets (v2 Bumble). Any other length throws.
    public init(hci bytes: some Collection<UInt8>) throws(DecodeError) {
        let n = bytes.count
        let layout: CapabilitiesLayout
        if let l = CapabilitiesLayout(byteCount: n) {
            layout = l
        } else if n < 28 {
            throw .truncated(field: "capabilities", needed: 28 - n)
        } else if n < 31 {
            throw .truncated(field: "T_IP2_IPT_Times_Supported", needed: 31 - n)
        } else if n < 34 {
            throw .truncated(field: "RTT_2M_N", needed: 34 - n)
        } else {
            throw .trailingBytes(extra: n - 34)
        }
        try self.init(hci: bytes, layout: layout)
    }

    /// Reads the block in `layout` from `r`, leaving `r` after it (for events and commands
    /// that carry the block after other fields).
    public init(reading r: inout ByteReader, layout: CapabilitiesLayout) throws(DecodeError) {
        self.init()
        numConfigSupported = try CSCapabilitiesFields.count(r.u8("Num_Config_Supported"), "Num_Config_Supported")
        maxConsecutiveProcedures = try r.u16("Max_Consecutive_Procedures_Supported")
        numAntennas = try CSCapabilitiesFields.count(r.u8("Num_Antennas_Supported"), "Num_Antennas_Supported")
        maxAntennaPaths = try CSCapabilitiesFields.count(r.u8("Max_Antenna_Paths_Supported"), "Max_Antenna_Paths_Supported")
        roles = CSRoles(rawValue: try r.u8("Roles_Supported"))
        try CSCapabilitiesFields.decodeModesRTTAndNADM(into: &self, from: &r)
        subfeatures = CSSubfeatures(rawValue: try r.u16("Subfeatures_Supported"))
        try CSCapabilitiesFields.decodeTimes(into: &self, from: &r)
        tSW = try r.value("T_SW_Time_Supported")
        txSNR = TxSNRCapability(rawValue: try r.u8("TX_SNR_Capability"))
        if layout == .v1 { return }
        tIP2IPTTimes = TimeSet(.tIP2, bits: try r.u16("T_IP2_IPT_Times_Supported"))
        tSWIPT = try r.value("T_SW_IPT_Time_Supported")
        if layout == .v2 { return }
        rtt2MAccessAddressOnlyN = try r.u8("RTT_2M_AA_Only_N")
        rtt2MSoundingN = try r.u8("RTT_2M_Sounding_N")
        rtt2MRandomSequenceN = try r.u8("RTT_2M_Random_Sequence_N")
    }

    /// Reads a capabilities block that runs to the end of `r`, choosing the layout by the
    /// number of octets left among `layouts` (v1 messages allow only the 28-octet form, v2
    /// messages the 31- and 34-octet forms).
    static func readBlock(_ r: inout ByteReader, layouts: [CapabilitiesLayout]) throws(DecodeError) -> (CSCapabilities, CapabilitiesLayout) {
        guard let layout = layouts.first(where: { $0.byteCount == r.remaining }) else {
            // Short of the next allowed length: truncated; past the longest: trailing octets.
            if let next = layouts.map({ $0.byteCount }).filter({ $0 > r.remaining }).min() {
                throw .truncated(field: "Capabilities", needed: next - r.remaining)
            }
            throw .trailingBytes(extra: r.remaining - (layouts.map { $0.byteCount }.max() ?? 0))
        }
        return (try CSCapabilities(reading: &r, layout: layout), layout)
    }

    static let v2Layouts: [CapabilitiesLayout] = [.v2, .v2WithPHYSpecificRTT]
}
