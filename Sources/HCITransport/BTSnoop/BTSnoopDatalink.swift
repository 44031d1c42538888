/// The datalink type in a btsnoop file header: it says how each record's data is framed
/// (Frontline "BTSnoop File Format"; BlueZ `src/shared/btsnoop.h`; Wireshark's btsnoop wiretap).
public struct BTSnoopDatalink: RawRepresentable, Sendable, Hashable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// 1001, "HCI un-encapsulated" (H1): the record holds the HCI packet without an indicator;
    /// the record flags say what it is (command/event flag plus direction, otherwise ACL data).
    public static let hciUnencapsulated = BTSnoopDatalink(rawValue: 1001)
    /// 1002, "HCI UART" (H4): the record data starts with the H4 packet indicator. What this
    /// module writes by default, and what Bumble and Android write.
    public static let hciUART = BTSnoopDatalink(rawValue: 1002)
    /// 1003, BCSP. Recognised by name only.
    public static let bcsp = BTSnoopDatalink(rawValue: 1003)
    /// 1004, three-wire UART (H5). Recognised by name only.
    public static let threeWireUART = BTSnoopDatalink(rawValue: 1004)
    /// 2001, BlueZ's Linux monitor format (btmon). Recognised by name only.
    public static let linuxMonitor = BTSnoopDatalink(rawValue: 2001)

    /// Whether `BTSnoopWriter` and `BTSnoopReader` handle this datalink (1001 and 1002).
    public var isSupported: Bool { self == .hciUnencapsulated || self == .hciUART }
}
