/// The HCI event codes this project sends or reads (Core 6.0 Vol 4 Part E §7.7), as Zephyr's
/// `BT_HCI_EVT_*`. LE Meta subevents have their own table, `LESubeventCode`.
public enum HCIEventCode {
    /// Disconnection Complete (§7.7.5).
    public static let disconnectionComplete: UInt8 = 0x05
    /// Encryption Change (§7.7.8).
    public static let encryptionChange: UInt8 = 0x08
    /// Read Remote Version Information Complete (§7.7.12).
    public static let readRemoteVersionInformationComplete: UInt8 = 0x0C
    /// Command Complete (§7.7.14).
    public static let commandComplete: UInt8 = 0x0E
    /// Command Status (§7.7.15).
    public static let commandStatus: UInt8 = 0x0F
    /// Hardware Error (§7.7.16): Hardware_Code, the controller's own.
    public static let hardwareError: UInt8 = 0x10
    /// Number Of Completed Packets (§7.7.19).
    public static let numberOfCompletedPackets: UInt8 = 0x13
    /// Encryption Key Refresh Complete (§7.7.39).
    public static let encryptionKeyRefreshComplete: UInt8 = 0x30
    /// LE Meta (§7.7.65): the first parameter is an `LESubeventCode`.
    public static let leMeta: UInt8 = 0x3E
}
