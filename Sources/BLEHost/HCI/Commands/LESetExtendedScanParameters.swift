import ReflectorFirmware

/// LE Set Extended Scan Parameters (0x2041, Core 6.0 Vol 4 Part E §7.8.64): `Own_Address_Type 1 (0–3) |
/// Scanning_Filter_Policy 1 (0–3) | Scanning_PHYs 1 (bit 0 LE 1M, bit 2 LE Coded; others RFU) |
/// {Scan_Type 1 (0–1) | Scan_Interval 2 | Scan_Window 2} × (bits set in Scanning_PHYs)`, the
/// per-PHY fields interleaved per PHY as Bumble and Zephyr write them, 1M first.
public struct LESetExtendedScanParameters: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leSetExtendedScanParameters
    public static let name: StaticString = "LE Set Extended Scan Parameters"

    public struct PHYParameters: HCIFieldGroup {
        public var active: Bool
        public var interval: UInt16
        public var window: UInt16

        public init(active: Bool = false, interval: UInt16 = 0x0010, window: UInt16 = 0x0010) {
            (self.active, self.interval, self.window) = (active, interval, window)
        }

        public static let fields: [HCIField<Self>] = [.flag(\.active, "Scan_Type"), .u16(\.interval, "Scan_Interval"), .u16(\.window, "Scan_Window")]
        public static var blank: Self { Self() }
    }

    public var ownAddressType: OwnAddressType
    public var filterPolicy: UInt8
    /// LE 1M scanning, if any.
    public var le1M: PHYParameters?
    /// LE Coded scanning, if any.
    public var leCoded: PHYParameters?

    public init(ownAddressType: OwnAddressType = .public, filterPolicy: UInt8 = 0, le1M: PHYParameters? = PHYParameters(), leCoded: PHYParameters? = nil) {
        (self.ownAddressType, self.filterPolicy, self.le1M, self.leCoded) = (ownAddressType, filterPolicy, le1M, leCoded)
    }

    /// The Scanning_PHYs octet.
    public var scanningPHYs: UInt8 { (le1M == nil ? 0 : 0x01) | (leCoded == nil ? 0 : 0x04) }

    public static let fields: [HCIField<Self>] = [
        .value(\.ownAddressType, "Own_Address_Type"), .u8(\.filterPolicy, "Scanning_Filter_Policy", in: 0...3),
        .perPHY("Scanning_PHYs", [(0x01, \.le1M), (0x04, \.leCoded)], allowed: { $0 & ~0x05 == 0 }),
    ]
    public static var blank: Self { Self() }
}
