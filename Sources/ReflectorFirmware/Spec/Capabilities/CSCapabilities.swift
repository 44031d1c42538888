/// What a controller can do in Channel Sounding: the capabilities block of LE CS Read Local
/// Supported Capabilities, Write Cached Remote Supported Capabilities and the Read Remote
/// Supported Capabilities Complete event (Core 6.0 Vol 4 Part E §7.8.130, §7.8.132,
/// §7.7.65.39; Core 6.3 v2 forms 0x20A5, 0x20A6, event 0x38), and of LL_CS_CAPABILITIES_REQ/RSP
/// (Vol 6 Part B §2.4.2.x). The codecs are `CSCapabilities+HCI.swift` and `CSCapabilities+LL.swift`,
/// with the runs both lay out alike in `CSCapabilitiesFields`.
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
}
