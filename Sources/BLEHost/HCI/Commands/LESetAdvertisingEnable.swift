import ReflectorFirmware

/// LE Set Advertising Enable (0x200A, Core 6.0 Vol 4 Part E §7.8.9): `Advertising_Enable 1 (0–1)`.
public struct LESetAdvertisingEnable: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leSetAdvertisingEnable
    public static let name: StaticString = "LE Set Advertising Enable"

    public var enable: Bool

    public init(enable: Bool) { self.enable = enable }

    public static let fields: [HCIField<Self>] = [.flag(\.enable, "Advertising_Enable")]
    public static var blank: Self { Self(enable: false) }
}
