import ReflectorFirmware

/// LE Create Connection Cancel (0x200E, Core 6.0 Vol 4 Part E §7.8.13): no parameters.
public struct LECreateConnectionCancel: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leCreateConnectionCancel
    public static let name: StaticString = "LE Create Connection Cancel"

    public init() {}

    public static let fields: [HCIField<Self>] = []
    public static var blank: Self { Self() }
}
