import ReflectorFirmware

/// LE Advertising Report (LE Meta 0x02, Core 6.0 Vol 4 Part E §7.7.65.2): `Num_Reports 1 (1–25) |
/// {Event_Type 1 (0–4) | Address_Type 1 (0–3) | Address 6 | Data_Length 1 (0–31) | Data n |
/// RSSI 1 (signed dBm, 127 unavailable)} × Num_Reports`. The reports follow one another whole,
/// as Bumble, Zephyr and Linux write and read them. [U: the spec's table lists the fields as
/// arrays `Event_Type[i]`, `Address_Type[i]`, …, which has been read as all Event_Types first,
/// then all Address_Types; no implementation we know writes that, and with one report, the
/// only form the virtual board sends, the two agree.] Event_Type: ADV_IND 0, ADV_DIRECT_IND 1,
/// ADV_SCAN_IND 2, ADV_NONCONN_IND 3, SCAN_RSP 4.
public struct LEAdvertisingReport: LEMetaSubevent {
    public static let subeventCode = LESubeventCode.advertisingReport

    public struct Report: Sendable, Equatable {
        public var eventType: UInt8
        public var addressType: UInt8
        public var address: UInt64
        /// At most 31 octets (more are cut when encoding).
        public var data: [UInt8]
        public var rssi: Int8

        public init(eventType: UInt8 = 0, addressType: UInt8 = 0, address: UInt64, data: [UInt8], rssi: Int8) {
            self.eventType = eventType
            self.addressType = addressType
            self.address = address
            self.data = data
            self.rssi = rssi
        }
    }

    /// 1 to 25 reports that fit the event together (the encoder writes what it is given).
    public var reports: [Report]

    public init(reports: [Report]) { self.reports = reports }

    public var parameterCapacity: Int { 1 + reports.reduce(0) { $0 + 10 + min($1.data.count, 31) } }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(UInt8(truncatingIfNeeded: reports.count))
        for report in reports {
            let d = report.data.prefix(31)
            w.u8(report.eventType)
            w.u8(report.addressType)
            w.address(report.address)
            w.u8(UInt8(d.count))
            w.octets(d)
            w.i8(report.rssi)
        }
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let n = try r.u8("Num_Reports", in: 1...0x19)
        var reports: [Report] = []
        reports.reserveCapacity(Int(n))
        for _ in 0..<n {
            let type = try r.u8("Event_Type", in: 0...4)
            let addressType = try r.u8("Address_Type", in: 0...3)
            let address = try r.address("Address")
            let data = try r.lengthPrefixed("Data_Length", "Data", maximum: 31)
            reports.append(Report(eventType: type, addressType: addressType, address: address, data: data, rssi: try r.i8("RSSI")))
        }
        return Self(reports: reports)
    }
}
