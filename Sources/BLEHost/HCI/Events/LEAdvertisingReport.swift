import ReflectorFirmware

/// LE Advertising Report (LE Meta 0x02, Core 6.0 Vol 4 Part E §7.7.65.2): `Num_Reports 1 (1–25) |
/// {Event_Type 1 (0–4) | Address_Type 1 (0–3) | Address 6 | Data_Length 1 (0–31) | Data n |
/// RSSI 1 (signed dBm, 127 unavailable)} × Num_Reports`. The reports follow one another whole,
/// as Bumble, Zephyr and Linux write and read them. [U: the spec's table lists the fields as
/// arrays `Event_Type[i]`, `Address_Type[i]`, …, which has been read as all Event_Types first,
/// then all Address_Types; no implementation we know writes that, and with one report, the
/// only form the virtual board sends, the two agree.] Event_Type: ADV_IND 0, ADV_DIRECT_IND 1,
/// ADV_SCAN_IND 2, ADV_NONCONN_IND 3, SCAN_RSP 4.
public struct LEAdvertisingReport: LEMetaSubevent, HCIFieldCodec {
    public static let subeventCode = LESubeventCode.advertisingReport
    public static var name: StaticString { "LE Advertising Report" }

    public struct Report: HCIFieldGroup {
        public var eventType: UInt8
        public var addressType: AddressType
        public var address: UInt64
        /// At most 31 octets (more are cut when encoding).
        public var data: [UInt8]
        public var rssi: Int8

        public init(eventType: UInt8 = 0, addressType: AddressType = .public, address: UInt64, data: [UInt8], rssi: Int8) {
            (self.eventType, self.addressType, self.address, self.data, self.rssi) = (eventType, addressType, address, data, rssi)
        }

        public static let fields: [HCIField<Self>] = [.u8(\.eventType, "Event_Type", in: 0...4), .value(\.addressType, "Address_Type"),
                                                      .address(\.address, "Address"), .lengthPrefixed(\.data, "Data_Length", "Data", maximum: 31),
                                                      .i8(\.rssi, "RSSI")]
        public static var blank: Self { Self(address: 0, data: [], rssi: 0) }
    }

    /// 1 to 25 reports that fit the event together (more are cut when encoding).
    public var reports: [Report]

    public init(reports: [Report]) { self.reports = reports }

    public static let fields: [HCIField<Self>] = [.list(\.reports, "Num_Reports", in: 1...0x19)]
    public static var blank: Self { Self(reports: []) }
}
