/// The HCI command opcodes this project sends, answers or names: the one table, in the spirit
/// of Zephyr's `BT_HCI_OP_*` (Core 6.0 Vol 4 Part E §7; opcode = OGF << 10 | OCF). Every
/// command type's `opcode`, the controller's and the virtual board's dispatch, and the hosts'
/// command lists take their values from here.
public enum HCIOpcode {
    // MARK: Link Control (OGF 0x01, §7.1)

    /// Disconnect (§7.1.6).
    public static let disconnect: UInt16 = 0x0406
    /// Read Remote Version Information (§7.1.23).
    public static let readRemoteVersionInformation: UInt16 = 0x041D

    // MARK: Controller & Baseband (OGF 0x03, §7.3)

    /// Set Event Mask (§7.3.1).
    public static let setEventMask: UInt16 = 0x0C01
    /// Reset (§7.3.2).
    public static let reset: UInt16 = 0x0C03
    /// Set Controller To Host Flow Control (§7.3.38).
    public static let setControllerToHostFlowControl: UInt16 = 0x0C31
    /// Host Buffer Size (§7.3.39).
    public static let hostBufferSize: UInt16 = 0x0C33
    /// Set Event Mask Page 2 (§7.3.69).
    public static let setEventMaskPage2: UInt16 = 0x0C63
    /// Read LE Host Support (§7.3.78).
    public static let readLEHostSupport: UInt16 = 0x0C6C
    /// Write LE Host Support (§7.3.79).
    public static let writeLEHostSupport: UInt16 = 0x0C6D

    // MARK: Informational (OGF 0x04, §7.4)

    /// Read Local Version Information (§7.4.1).
    public static let readLocalVersionInformation: UInt16 = 0x1001
    /// Read Local Supported Commands (§7.4.2).
    public static let readLocalSupportedCommands: UInt16 = 0x1002
    /// Read Local Supported Features (§7.4.3).
    public static let readLocalSupportedFeatures: UInt16 = 0x1003
    /// Read Buffer Size (§7.4.5).
    public static let readBufferSize: UInt16 = 0x1005
    /// Read BD_ADDR (§7.4.6).
    public static let readBDAddr: UInt16 = 0x1009

    // MARK: LE Controller (OGF 0x08, §7.8)

    /// LE Set Event Mask (§7.8.1).
    public static let leSetEventMask: UInt16 = 0x2001
    /// LE Read Buffer Size (§7.8.2).
    public static let leReadBufferSize: UInt16 = 0x2002
    /// LE Read Local Supported Features (§7.8.3).
    public static let leReadLocalSupportedFeatures: UInt16 = 0x2003
    /// LE Set Random Address (§7.8.4).
    public static let leSetRandomAddress: UInt16 = 0x2005
    /// LE Set Advertising Parameters (§7.8.5).
    public static let leSetAdvertisingParameters: UInt16 = 0x2006
    /// LE Read Advertising Physical Channel Tx Power (§7.8.6).
    public static let leReadAdvertisingPhysicalChannelTxPower: UInt16 = 0x2007
    /// LE Set Advertising Data (§7.8.7).
    public static let leSetAdvertisingData: UInt16 = 0x2008
    /// LE Set Scan Response Data (§7.8.8).
    public static let leSetScanResponseData: UInt16 = 0x2009
    /// LE Set Advertising Enable (§7.8.9).
    public static let leSetAdvertisingEnable: UInt16 = 0x200A
    /// LE Set Scan Parameters (§7.8.10).
    public static let leSetScanParameters: UInt16 = 0x200B
    /// LE Set Scan Enable (§7.8.11).
    public static let leSetScanEnable: UInt16 = 0x200C
    /// LE Create Connection (§7.8.12).
    public static let leCreateConnection: UInt16 = 0x200D
    /// LE Create Connection Cancel (§7.8.13).
    public static let leCreateConnectionCancel: UInt16 = 0x200E
    /// LE Read Filter Accept List Size (§7.8.14).
    public static let leReadFilterAcceptListSize: UInt16 = 0x200F
    /// LE Clear Filter Accept List (§7.8.15).
    public static let leClearFilterAcceptList: UInt16 = 0x2010
    /// LE Add Device To Filter Accept List (§7.8.16).
    public static let leAddDeviceToFilterAcceptList: UInt16 = 0x2011
    /// LE Remove Device From Filter Accept List (§7.8.17).
    public static let leRemoveDeviceFromFilterAcceptList: UInt16 = 0x2012
    /// LE Read Remote Features (§7.8.21).
    public static let leReadRemoteFeatures: UInt16 = 0x2016
    /// LE Rand (§7.8.23).
    public static let leRand: UInt16 = 0x2018
    /// LE Enable Encryption (§7.8.24).
    public static let leEnableEncryption: UInt16 = 0x2019
    /// LE Long Term Key Request Reply (§7.8.25).
    public static let leLongTermKeyRequestReply: UInt16 = 0x201A
    /// LE Long Term Key Request Negative Reply (§7.8.26).
    public static let leLongTermKeyRequestNegativeReply: UInt16 = 0x201B
    /// LE Read Supported States (§7.8.27).
    public static let leReadSupportedStates: UInt16 = 0x201C
    /// LE Set Data Length (§7.8.33).
    public static let leSetDataLength: UInt16 = 0x2022
    /// LE Read Suggested Default Data Length (§7.8.34).
    public static let leReadSuggestedDefaultDataLength: UInt16 = 0x2023
    /// LE Write Suggested Default Data Length (§7.8.35).
    public static let leWriteSuggestedDefaultDataLength: UInt16 = 0x2024
    /// LE Read Maximum Data Length (§7.8.46).
    public static let leReadMaximumDataLength: UInt16 = 0x202F
    /// LE Read PHY (§7.8.47).
    public static let leReadPHY: UInt16 = 0x2030
    /// LE Set Default PHY (§7.8.48).
    public static let leSetDefaultPHY: UInt16 = 0x2031
    /// LE Set Advertising Set Random Address (§7.8.52).
    public static let leSetAdvertisingSetRandomAddress: UInt16 = 0x2035
    /// LE Set Extended Advertising Parameters v1 (§7.8.53).
    public static let leSetExtendedAdvertisingParameters: UInt16 = 0x2036
    /// LE Set Extended Advertising Data (§7.8.54).
    public static let leSetExtendedAdvertisingData: UInt16 = 0x2037
    /// LE Set Extended Scan Response Data (§7.8.55).
    public static let leSetExtendedScanResponseData: UInt16 = 0x2038
    /// LE Set Extended Advertising Enable (§7.8.56).
    public static let leSetExtendedAdvertisingEnable: UInt16 = 0x2039
    /// LE Read Maximum Advertising Data Length (§7.8.57).
    public static let leReadMaximumAdvertisingDataLength: UInt16 = 0x203A
    /// LE Read Number of Supported Advertising Sets (§7.8.58).
    public static let leReadNumberOfSupportedAdvertisingSets: UInt16 = 0x203B
    /// LE Remove Advertising Set (§7.8.59).
    public static let leRemoveAdvertisingSet: UInt16 = 0x203C
    /// LE Clear Advertising Sets (§7.8.60).
    public static let leClearAdvertisingSets: UInt16 = 0x203D
    /// LE Set Extended Scan Parameters (§7.8.64).
    public static let leSetExtendedScanParameters: UInt16 = 0x2041
    /// LE Set Extended Scan Enable (§7.8.65).
    public static let leSetExtendedScanEnable: UInt16 = 0x2042
    /// LE Extended Create Connection (§7.8.66).
    public static let leExtendedCreateConnection: UInt16 = 0x2043
    /// LE Read Buffer Size v2 (§7.8.2).
    public static let leReadBufferSizeV2: UInt16 = 0x2060
    /// LE Set Host Feature (§7.8.115).
    public static let leSetHostFeature: UInt16 = 0x2074

    // MARK: LE Channel Sounding (§7.8.130–§7.8.144; v2 forms Core 6.3)

    /// LE CS Read Local Supported Capabilities (§7.8.130).
    public static let leCSReadLocalSupportedCapabilities: UInt16 = 0x2089
    /// LE CS Read Remote Supported Capabilities (§7.8.131).
    public static let leCSReadRemoteSupportedCapabilities: UInt16 = 0x208A
    /// LE CS Write Cached Remote Supported Capabilities (§7.8.132).
    public static let leCSWriteCachedRemoteSupportedCapabilities: UInt16 = 0x208B
    /// LE CS Security Enable (§7.8.133).
    public static let leCSSecurityEnable: UInt16 = 0x208C
    /// LE CS Set Default Settings (§7.8.134).
    public static let leCSSetDefaultSettings: UInt16 = 0x208D
    /// LE CS Read Remote FAE Table (§7.8.135).
    public static let leCSReadRemoteFAETable: UInt16 = 0x208E
    /// LE CS Write Cached Remote FAE Table (§7.8.136).
    public static let leCSWriteCachedRemoteFAETable: UInt16 = 0x208F
    /// LE CS Create Config (§7.8.137).
    public static let leCSCreateConfig: UInt16 = 0x2090
    /// LE CS Remove Config (§7.8.138).
    public static let leCSRemoveConfig: UInt16 = 0x2091
    /// LE CS Set Channel Classification (§7.8.139).
    public static let leCSSetChannelClassification: UInt16 = 0x2092
    /// LE CS Set Procedure Parameters (§7.8.140).
    public static let leCSSetProcedureParameters: UInt16 = 0x2093
    /// LE CS Procedure Enable (§7.8.141).
    public static let leCSProcedureEnable: UInt16 = 0x2094
    /// LE CS Test (§7.8.142).
    public static let leCSTest: UInt16 = 0x2095
    /// LE CS Test End (§7.8.143).
    public static let leCSTestEnd: UInt16 = 0x2096
    /// LE CS Read Local Supported Capabilities v2 (Core 6.3).
    public static let leCSReadLocalSupportedCapabilitiesV2: UInt16 = 0x20A5
    /// LE CS Write Cached Remote Supported Capabilities v2 (Core 6.3).
    public static let leCSWriteCachedRemoteSupportedCapabilitiesV2: UInt16 = 0x20A6
}
