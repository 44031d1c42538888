import ReflectorFirmware

/// LE Set Extended Scan Enable (0x2042, Core 6.0 Vol 4 Part E §7.8.65): `Enable 1 (0–1) |
/// Filter_Duplicates 1 (0–2) | Duration 2 (10 ms, 0 until disabled) | Period 2 (1.28 s, 0 continuous)`.
public struct LESetExtendedScanEnable: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leSetExtendedScanEnable
    public static let name: StaticString = "LE Set Extended Scan Enable"

    public var enable: Bool
    /// Off 0, on 1, on and reset each period 2.
    public var filterDuplicates: UInt8
    public var duration: UInt16
    public var period: UInt16

    public init(enable: Bool, filterDuplicates: UInt8 = 0, duration: UInt16 = 0, period: UInt16 = 0) {
        (self.enable, self.filterDuplicates, self.duration, self.period) = (enable, filterDuplicates, duration, period)
    }

    public static let fields: [HCIField<Self>] = [.flag(\.enable, "Enable"), .u8(\.filterDuplicates, "Filter_Duplicates", in: 0...2),
                                                  .u16(\.duration, "Duration"), .u16(\.period, "Period")]
    public static var blank: Self { Self(enable: false) }
}
