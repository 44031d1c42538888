import ReflectorFirmware

/// LE Set Scan Parameters (0x200B, Core 6.0 Vol 4 Part E §7.8.10): `LE_Scan_Type 1 (0 passive,
/// 1 active) | LE_Scan_Interval 2 | LE_Scan_Window 2 | Own_Address_Type 1 (0–3) |
/// Scanning_Filter_Policy 1 (0–3)`, 7 octets. Interval and window in 0.625 ms.
public struct LESetScanParameters: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leSetScanParameters
    public static let name: StaticString = "LE Set Scan Parameters"

    public var active: Bool
    public var interval: UInt16
    public var window: UInt16
    public var ownAddressType: OwnAddressType
    public var filterPolicy: UInt8

    public init(active: Bool = false, interval: UInt16 = 0x0010, window: UInt16 = 0x0010, ownAddressType: OwnAddressType = .public, filterPolicy: UInt8 = 0) {
        (self.active, self.interval, self.window, self.ownAddressType, self.filterPolicy) = (active, interval, window, ownAddressType, filterPolicy)
    }

    public static let fields: [HCIField<Self>] = [.flag(\.active, "LE_Scan_Type"), .u16(\.interval, "LE_Scan_Interval"), .u16(\.window, "LE_Scan_Window"),
                                                  .value(\.ownAddressType, "Own_Address_Type"), .u8(\.filterPolicy, "Scanning_Filter_Policy", in: 0...3)]
    public static var blank: Self { Self() }
}
