import ReflectorFirmware

/// LE Extended Advertising Report (LE Meta 0x0D, Core 6.0 Vol 4 Part E §7.7.65.13):
/// `Num_Reports 1 (1–10) | {Event_Type 2 | Address_Type 1 | Address 6 | Primary_PHY 1 |
/// Secondary_PHY 1 | Advertising_SID 1 | TX_Power 1 (signed) | RSSI 1 (signed) |
/// Periodic_Advertising_Interval 2 | Direct_Address_Type 1 | Direct_Address 6 |
/// Data_Length 1 (0–229) | Data n} × Num_Reports`, each report whole (24 octets + data), as
/// Bumble, Zephyr and Linux write and read them. Event_Type bits: 0 connectable, 1 scannable,
/// 2 directed, 3 scan response, 4 legacy, 5–6 data status. Address_Type is 0–3 or 0xFF
/// (anonymous), so it stays an octet here.
public struct LEExtendedAdvertisingReport: LEMetaSubevent, HCIFieldCodec {
    public static let subeventCode = LESubeventCode.extendedAdvertisingReport
    public static var name: StaticString { "LE Extended Advertising Report" }

    public struct Report: HCIFieldGroup {
        public var eventType: UInt16
        public var addressType: UInt8
        public var address: UInt64
        public var primaryPHY: UInt8
        public var secondaryPHY: UInt8
        public var sid: UInt8
        public var txPower: Int8
        public var rssi: Int8
        public var periodicInterval: UInt16
        public var directAddressType: UInt8
        public var directAddress: UInt64
        /// At most 229 octets (more are cut when encoding).
        public var data: [UInt8]

        public init(eventType: UInt16 = 0x13, addressType: UInt8 = 0, address: UInt64, primaryPHY: UInt8 = 1, secondaryPHY: UInt8 = 0,
                    sid: UInt8 = 0xFF, txPower: Int8 = 127, rssi: Int8, periodicInterval: UInt16 = 0, directAddressType: UInt8 = 0,
                    directAddress: UInt64 = 0, data: [UInt8]) {
            (self.eventType, self.addressType, self.address, self.primaryPHY, self.secondaryPHY, self.sid) = (eventType, addressType, address, primaryPHY, secondaryPHY, sid)
            (self.txPower, self.rssi, self.periodicInterval, self.directAddressType, self.directAddress, self.data) = (txPower, rssi, periodicInterval, directAddressType, directAddress, data)
        }

        public static let fields: [HCIField<Self>] = [
            .u16(\.eventType, "Event_Type"), .u8(\.addressType, "Address_Type", allowing: { $0 <= 3 || $0 == 0xFF }), .address(\.address, "Address"),
            .u8(\.primaryPHY, "Primary_PHY", allowing: { $0 == 1 || $0 == 3 }), .u8(\.secondaryPHY, "Secondary_PHY", in: 0...3),
            .u8(\.sid, "Advertising_SID", allowing: { $0 <= 0x0F || $0 == 0xFF }), .i8(\.txPower, "TX_Power"), .i8(\.rssi, "RSSI"),
            .u16(\.periodicInterval, "Periodic_Advertising_Interval"), .u8(\.directAddressType, "Direct_Address_Type", allowing: { $0 <= 4 || $0 == 0xFE }),
            .address(\.directAddress, "Direct_Address"), .lengthPrefixed(\.data, "Data_Length", "Data", maximum: 229),
        ]
        public static var blank: Self { Self(address: 0, rssi: 0, data: []) }
    }

    /// 1 to 10 reports (more are cut when encoding).
    public var reports: [Report]

    public init(reports: [Report]) { self.reports = reports }

    public static let fields: [HCIField<Self>] = [.list(\.reports, "Num_Reports", in: 1...0x0A)]
    public static var blank: Self { Self(reports: []) }
}
