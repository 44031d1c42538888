import ReflectorFirmware

/// LE Set Random Address (0x2005, Core 6.0 Vol 4 Part E §7.8.4): `Random_Address 6`.
public struct LESetRandomAddress: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leSetRandomAddress
    public static let name: StaticString = "LE Set Random Address"

    /// The low 48 bits.
    public var address: UInt64

    public init(address: UInt64) { self.address = address }

    public static let fields: [HCIField<Self>] = [.address(\.address, "Random_Address")]
    public static var blank: Self { Self(address: 0) }
}
