import ReflectorFirmware

/// LE Set Scan Enable (0x200C, Core 6.0 Vol 4 Part E §7.8.11): `LE_Scan_Enable 1 (0–1) |
/// Filter_Duplicates 1 (0–1)`.
public struct LESetScanEnable: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leSetScanEnable
    public static let name: StaticString = "LE Set Scan Enable"

    public var enable: Bool
    public var filterDuplicates: Bool

    public init(enable: Bool, filterDuplicates: Bool = false) { (self.enable, self.filterDuplicates) = (enable, filterDuplicates) }

    public static let fields: [HCIField<Self>] = [.flag(\.enable, "LE_Scan_Enable"), .flag(\.filterDuplicates, "Filter_Duplicates")]
    public static var blank: Self { Self(enable: false) }
}
