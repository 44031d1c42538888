/// The LE Meta subevent codes this project sends or reads (Core 6.0 Vol 4 Part E §7.7.65), as
/// Zephyr's `BT_HCI_EVT_LE_*`. Each is unmasked by LE Set Event Mask bit code − 1
/// (`EventMasks.allows(leSubevent:)`).
public enum LESubeventCode {
    /// LE Connection Complete (§7.7.65.1).
    public static let connectionComplete: UInt8 = 0x01
    /// LE Advertising Report (§7.7.65.2).
    public static let advertisingReport: UInt8 = 0x02
    /// LE Read Remote Features Complete (§7.7.65.4).
    public static let readRemoteFeaturesComplete: UInt8 = 0x04
    /// LE Long Term Key Request (§7.7.65.5).
    public static let longTermKeyRequest: UInt8 = 0x05
    /// LE Data Length Change (§7.7.65.7).
    public static let dataLengthChange: UInt8 = 0x07
    /// LE Enhanced Connection Complete v1 (§7.7.65.10).
    public static let enhancedConnectionComplete: UInt8 = 0x0A
    /// LE Extended Advertising Report (§7.7.65.13).
    public static let extendedAdvertisingReport: UInt8 = 0x0D
    /// LE Advertising Set Terminated (§7.7.65.18).
    public static let advertisingSetTerminated: UInt8 = 0x12
    /// LE Enhanced Connection Complete v2 (§7.7.65.10).
    public static let enhancedConnectionCompleteV2: UInt8 = 0x29

    // MARK: Channel Sounding (§7.7.65.39–§7.7.65.46; v2 Core 6.3)

    /// LE CS Read Remote Supported Capabilities Complete (§7.7.65.39).
    public static let csReadRemoteSupportedCapabilitiesComplete: UInt8 = 0x2C
    /// LE CS Read Remote FAE Table Complete (§7.7.65.40).
    public static let csReadRemoteFAETableComplete: UInt8 = 0x2D
    /// LE CS Security Enable Complete (§7.7.65.41).
    public static let csSecurityEnableComplete: UInt8 = 0x2E
    /// LE CS Config Complete (§7.7.65.42).
    public static let csConfigComplete: UInt8 = 0x2F
    /// LE CS Procedure Enable Complete (§7.7.65.43).
    public static let csProcedureEnableComplete: UInt8 = 0x30
    /// LE CS Subevent Result (§7.7.65.44).
    public static let csSubeventResult: UInt8 = 0x31
    /// LE CS Subevent Result Continue (§7.7.65.45).
    public static let csSubeventResultContinue: UInt8 = 0x32
    /// LE CS Test End Complete (§7.7.65.46).
    public static let csTestEndComplete: UInt8 = 0x33
    /// LE CS Read Remote Supported Capabilities Complete v2 (Core 6.3).
    public static let csReadRemoteSupportedCapabilitiesCompleteV2: UInt8 = 0x38
}
