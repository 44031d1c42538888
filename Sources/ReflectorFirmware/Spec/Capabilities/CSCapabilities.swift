import WireFormat

/// What a controller can do in Channel Sounding: the capabilities block of LE CS Read Local
/// Supported Capabilities, Write Cached Remote Supported Capabilities and the Read Remote
/// Supported Capabilities Complete event (Core 6.0 Vol 4 Part E §7.8.130, §7.8.132,
/// §7.7.65.39; Core 6.3 v2 forms 0x20A5, 0x20A6, event 0x38), and of LL_CS_CAPABILITIES_REQ/RSP
/// (Vol 6 Part B §2.4.2.x; see `CSCapabilities+LL.swift`).
///
/// Both sides exchange this value before a configuration is created; timing selection and
/// configuration checks compare the two. Bitmap fields keep RFU bits, so decoding then
/// encoding in the same layout reproduces the input octets exactly.
public struct CSCapabilities: Sendable, Hashable {
    /// Num_Config_Supported, 1...4: CS configurations per connection.
    public var numConfigSupported: UInt8
    /// Max_Consecutive_Procedures_Supported; 0 means fixed and indefinite counts are both supported.
    public var maxConsecutiveProcedures: UInt16
    /// Num_Antennas_Supported, 1...4.
    public var numAntennas: UInt8
    /// Max_Antenna_Paths_Supported, 1...4.
    public var maxAntennaPaths: UInt8
    public var roles: CSRoles
    /// Modes_Supported (mode 3 only; modes 0, 1, 2 are mandatory).
    public var optionalModes: CSOptionalModes
    /// RTT_Capability: which RTT variants reach 10 ns precision.
    public var rttPrecision: RTTPrecision
    /// RTT_AA_Only_N, RTT_Sounding_N, RTT_Random_Payload_N: steps needed for the precision;
    /// 0 = variant not supported.
    public var rttAccessAddressOnlyN: UInt8
    public var rttSoundingN: UInt8
    public var rttRandomSequenceN: UInt8
    public var nadmSounding: NADMCapability
    public var nadmRandomSequence: NADMCapability
    /// CS_SYNC_PHYs_Supported (LE 1M implicit).
    public var syncPHYs: CSSyncPHYs
    public var subfeatures: CSSubfeatures
    public var tIP1Times: TimeSet
    public var tIP2Times: TimeSet
    public var tFCSTimes: TimeSet
    public var tPMTimes: TimeSet
    /// T_SW_Time_Supported.
    public var tSW: AntennaSwitchTime
    public var txSNR: TxSNRCapability
    /// Core 6.3 v2: T_IP2 times the device supports when Inline PCT Transfer is in use
    /// (assumed to use the T_IP2 bit meanings, reference §1.3 [U]).
    public var tIP2IPTTimes: TimeSet
    /// Core 6.3 v2: antenna switch time under Inline PCT Transfer.
    public var tSWIPT: AntennaSwitchTime
    /// Core 6.3 "PHY-specific RTT accuracy" (Bumble's 34-octet v2 only): N values on LE 2M;
    /// 0 = not stated / not supported.
    public var rtt2MAccessAddressOnlyN: UInt8
    public var rtt2MSoundingN: UInt8
    public var rtt2MRandomSequenceN: UInt8

    /// Defaults describe a minimal controller: one configuration, one antenna, both roles off,
    /// only the mandatory modes and times.
    public init(
        numConfigSupported: UInt8 = 1, maxConsecutiveProcedures: UInt16 = 0,
        numAntennas: UInt8 = 1, maxAntennaPaths: UInt8 = 1,
        roles: CSRoles = [], optionalModes: CSOptionalModes = [],
        rttPrecision: RTTPrecision = [], rttAccessAddressOnlyN: UInt8 = 0, rttSoundingN: UInt8 = 0,
        rttRandomSequenceN: UInt8 = 0,
        nadmSounding: NADMCapability = [], nadmRandomSequence: NADMCapability = [],
        syncPHYs: CSSyncPHYs = [], subfeatures: CSSubfeatures = [],
        tIP1Times: TimeSet = .mandatory(.tIP1), tIP2Times: TimeSet = .mandatory(.tIP2),
        tFCSTimes: TimeSet = .mandatory(.tFCS), tPMTimes: TimeSet = .mandatory(.tPM),
        tSW: AntennaSwitchTime = .none, txSNR: TxSNRCapability = [],
        tIP2IPTTimes: TimeSet = .mandatory(.tIP2), tSWIPT: AntennaSwitchTime = .none,
        rtt2MAccessAddressOnlyN: UInt8 = 0, rtt2MSoundingN: UInt8 = 0, rtt2MRandomSequenceN: UInt8 = 0
    ) {
        self.numConfigSupported = numConfigSupported
        self.maxConsecutiveProcedures = maxConsecutiveProcedures
        self.numAntennas = numAntennas
        self.maxAntennaPaths = maxAntennaPaths
        self.roles = roles
        self.optionalModes = optionalModes
        self.rttPrecision = rttPrecision
        self.rttAccessAddressOnlyN = rttAccessAddressOnlyN
        self.rttSoundingN = rttSoundingN
        self.rttRandomSequenceN = rttRandomSequenceN
        self.nadmSounding = nadmSounding
        self.nadmRandomSequence = nadmRandomSequence
        self.syncPHYs = syncPHYs
        self.subfeatures = subfeatures
        self.tIP1Times = tIP1Times
        self.tIP2Times = tIP2Times
        self.tFCSTimes = tFCSTimes
        self.tPMTimes = tPMTimes
        self.tSW = tSW
        self.txSNR = txSNR
        self.tIP2IPTTimes = tIP2IPTTimes
        self.tSWIPT = tSWIPT
        self.rtt2MAccessAddressOnlyN = rtt2MAccessAddressOnlyN
        self.rtt2MSoundingN = rtt2MSoundingN
        self.rtt2MRandomSequenceN = rtt2MRandomSequenceN
    }

    // MARK: Queries

    @inline(__always) public func supports(_ mode: CSMode) -> Bool { optionalModes.supports(mode) }
    @inline(__always) public func supports(_ phy: CSSyncPHY) -> Bool { syncPHYs.supports(phy) }
    @inline(__always) public func supports(_ role: CSRole) -> Bool { roles.supports(role) }

    /// The N value stated for `rttType` (0 = unsupported).
    public func rttN(for rttType: RTTType) -> UInt8 {
        switch rttType {
        case .accessAddressOnly: return rttAccessAddressOnlyN
        case .sounding32, .sounding96: return rttSoundingN
        case .random32, .random64, .random96, .random128: return rttRandomSequenceN
        }
    }

    /// Whether RTT of `rttType` is supported (its N value is non-zero).
    @inline(__always) public func supports(_ rttType: RTTType) -> Bool { rttN(for: rttType) != 0 }

    /// Whether Inline PCT Transfer is supported in the reflector role (subfeature bit 4).
    @inline(__always) public var supportsInlinePCT: Bool { subfeatures.contains(.inlinePCTReflector) }

    // MARK: HCI encoding

    /// Appends the block in `layout` (Core 6.0 Vol 4 Part E §7.8.130 field order; v2 extras
    /// from Core 6.3 per Zephyr `hci_types.h` and Bumble PR #953).
    public func encodeHCI(into w: inout ByteWriter, layout: CapabilitiesLayout) {
        w.u8(numConfigSupported)
        w.u16(maxConsecutiveProcedures)
        w.u8(numAntennas)
        w.u8(maxAntennaPaths)
        w.u8(roles.rawValue)
        w.u8(optionalModes.rawValue)
        w.u8(rttPrecision.rawValue)
        w.u8(rttAccessAddressOnlyN)
        w.u8(rttSoundingN)
        w.u8(rttRandomSequenceN)
        w.u16(nadmSounding.rawValue)
        w.u16(nadmRandomSequence.rawValue)
        w.u8(syncPHYs.rawValue)
        w.u16(subfeatures.rawValue)
        w.u16(tIP1Times.bits)
        w.u16(tIP2Times.bits)
        w.u16(tFCSTimes.bits)
        w.u16(tPMTimes.bits)
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
        numConfigSupported = try Self.checkedRange(r.u8("Num_Config_Supported"), "Num_Config_Supported")
        maxConsecutiveProcedures = try r.u16("Max_Consecutive_Procedures_Supported")
        numAntennas = try Self.checkedRange(r.u8("Num_Antennas_Supported"), "Num_Antennas_Supported")
        maxAntennaPaths = try Self.checkedRange(r.u8("Max_Antenna_Paths_Supported"), "Max_Antenna_Paths_Supported")
        roles = CSRoles(rawValue: try r.u8("Roles_Supported"))
        optionalModes = CSOptionalModes(rawValue: try r.u8("Modes_Supported"))
        rttPrecision = RTTPrecision(rawValue: try r.u8("RTT_Capability"))
        rttAccessAddressOnlyN = try r.u8("RTT_AA_Only_N")
        rttSoundingN = try r.u8("RTT_Sounding_N")
        rttRandomSequenceN = try r.u8("RTT_Random_Payload_N")
        nadmSounding = NADMCapability(rawValue: try r.u16("NADM_Sounding_Capability"))
        nadmRandomSequence = NADMCapability(rawValue: try r.u16("NADM_Random_Capability"))
        syncPHYs = CSSyncPHYs(rawValue: try r.u8("CS_SYNC_PHYs_Supported"))
        subfeatures = CSSubfeatures(rawValue: try r.u16("Subfeatures_Supported"))
        tIP1Times = TimeSet(.tIP1, bits: try r.u16("T_IP1_Times_Supported"))
        tIP2Times = TimeSet(.tIP2, bits: try r.u16("T_IP2_Times_Supported"))
        tFCSTimes = TimeSet(.tFCS, bits: try r.u16("T_FCS_Times_Supported"))
        tPMTimes = TimeSet(.tPM, bits: try r.u16("T_PM_Times_Supported"))
        tSW = try Self.switchTime(r.u8("T_SW_Time_Supported"), "T_SW_Time_Supported")
        txSNR = TxSNRCapability(rawValue: try r.u8("TX_SNR_Capability"))
        if layout == .v1 { return }
        tIP2IPTTimes = TimeSet(.tIP2, bits: try r.u16("T_IP2_IPT_Times_Supported"))
        tSWIPT = try Self.switchTime(r.u8("T_SW_IPT_Time_Supported"), "T_SW_IPT_Time_Supported")
        if layout == .v2 { return }
        rtt2MAccessAddressOnlyN = try r.u8("RTT_2M_AA_Only_N")
        rtt2MSoundingN = try r.u8("RTT_2M_Sounding_N")
        rtt2MRandomSequenceN = try r.u8("RTT_2M_Random_Sequence_N")
    }

    static func checkedRange(_ v: UInt8, _ field: StaticString) throws(DecodeError) -> UInt8 {
        guard v >= 1 && v <= 4 else { throw .invalidValue(field: field, value: Int(v)) }
        return v
    }

    static func switchTime(_ v: UInt8, _ field: StaticString) throws(DecodeError) -> AntennaSwitchTime {
        guard let t = AntennaSwitchTime(rawValue: v) else { throw .invalidValue(field: field, value: Int(v)) }
        return t
    }
}
