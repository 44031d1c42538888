import ReflectorFirmware

/// LE Set Scan Parameters (0x200B, Core 6.0 Vol 4 Part E §7.8.10): `LE_Scan_Type 1 (0 passive,
/// 1 active) | LE_Scan_Interval 2 | LE_Scan_Window 2 | Own_Address_Type 1 (0–3) |
/// Scanning_Filter_Policy 1 (0–3)`, 7 octets. Interval and window in 0.625 ms.
public struct LESetScanParameters: HCICommand {
    public static let opcode = HCIOpcode.leSetScanParameters

    public var active: Bool
    public var interval: UInt16
    public var window: UInt16
    public var ownAddressType: UInt8
    public var filterPolicy: UInt8

    public init(active: Bool = false, interval: UInt16 = 0x0010, window: UInt16 = 0x0010, ownAddressType: UInt8 = 0, filterPolicy: UInt8 = 0) {
        self.active = active
        self.interval = interval
        self.window = window
        self.ownAddressType = ownAddressType
        self.filterPolicy = filterPolicy
    }

    public var parameterCapacity: Int { 7 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.flag(active)
        w.u16(interval)
        w.u16(window)
        w.u8(ownAddressType)
        w.u8(filterPolicy)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let active = try r.flag("LE_Scan_Type")
        let interval = try r.u16("LE_Scan_Interval")
        let window = try r.u16("LE_Scan_Window")
        let own = try r.u8("Own_Address_Type", in: 0...3)
        return Self(active: active, interval: interval, window: window, ownAddressType: own,
                    filterPolicy: try r.u8("Scanning_Filter_Policy", in: 0...3))
    }
}
