import ReflectorFirmware

/// LE Extended Advertising Report (LE Meta 0x0D, Core 6.0 Vol 4 Part E §7.7.65.13):
/// `Num_Reports 1 (1–10) | {Event_Type 2 | Address_Type 1 | Address 6 | Primary_PHY 1 |
/// Secondary_PHY 1 | Advertising_SID 1 | TX_Power 1 (signed) | RSSI 1 (signed) |
/// Periodic_Advertising_Interval 2 | Direct_Address_Type 1 | Direct_Address 6 |
/// Data_Length 1 (0–229) | Data n} × Num_Reports`, each report whole (24 octets + data), as
/// Bumble, Zephyr and Linux write and read them. Event_Type bits: 0 connectable, 1 scannable,
/// 2 directed, 3 scan response, 4 legacy, 5–6 data status.
public struct LEExtendedAdvertisingReport: LEMetaSubevent {
    public static let subeventCode = LESubeventCode.extendedAdvertisingReport

    public struct Report: Sendable, Equatable {
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
            self.eventType = eventType
            self.addressType = addressType
            self.address = address
            self.primaryPHY = primaryPHY
            self.secondaryPHY = secondaryPHY
            self.sid = sid
            self.txPower = txPower
            self.rssi = rssi
            self.periodicInterval = periodicInterval
            self.directAddressType = directAddressType
            self.directAddress = directAddress
            self.data = data
        }
    }

    public var reports: [Report]

    public init(reports: [Report]) { self.reports = reports }

    public var parameterCapacity: Int { 1 + reports.reduce(0) { $0 + 24 + min($1.data.count, 229) } }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(UInt8(truncatingIfNeeded: reports.count))
        for report in reports {
            let d = report.data.prefix(229)
            w.u16(report.eventType)
            w.u8(report.addressType)
            w.address(report.address)
            w.u8(report.primaryPHY)
            w.u8(report.secondaryPHY)
            w.u8(report.sid)
            w.i8(report.txPower)
            w.i8(report.rssi)
            w.u16(report.periodicInterval)
            w.u8(report.directAddressType)
            w.address(report.directAddress)
            w.u8(UInt8(d.count))
            w.octets(d)
        }
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let n = try r.u8("Num_Reports", in: 1...0x0A)
        var reports: [Report] = []
        reports.reserveCapacity(Int(n))
        for _ in 0..<n {
            let type = try r.u16("Event_Type")
            let addressType = try r.u8("Address_Type")
            guard addressType <= 3 || addressType == 0xFF else { throw .invalidValue(field: "Address_Type", value: Int(addressType)) }
            let address = try r.address("Address")
            let primary = try r.u8("Primary_PHY")
            guard primary == 1 || primary == 3 else { throw .invalidValue(field: "Primary_PHY", value: Int(primary)) }
            let secondary = try r.u8("Secondary_PHY", in: 0...3)
            let sid = try r.u8("Advertising_SID")
            guard sid <= 0x0F || sid == 0xFF else { throw .invalidValue(field: "Advertising_SID", value: Int(sid)) }
            let tx = try r.i8("TX_Power")
            let rssi = try r.i8("RSSI")
            let interval = try r.u16("Periodic_Advertising_Interval")
            let directType = try r.u8("Direct_Address_Type")
            guard directType <= 4 || directType == 0xFE else { throw .invalidValue(field: "Direct_Address_Type", value: Int(directType)) }
            let direct = try r.address("Direct_Address")
            let data = try r.lengthPrefixed("Data_Length", "Data", maximum: 229)
            reports.append(Report(eventType: type, addressType: addressType, address: address, primaryPHY: primary, secondaryPHY: secondary,
                                  sid: sid, txPower: tx, rssi: rssi, periodicInterval: interval, directAddressType: directType,
                                  directAddress: direct, data: data))
        }
        return Self(reports: reports)
    }
}
