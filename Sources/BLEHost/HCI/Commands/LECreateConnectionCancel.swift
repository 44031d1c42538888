import ReflectorFirmware

/// LE Create Connection Cancel (0x200E, Core 6.0 Vol 4 Part E §7.8.13): no parameters.
public struct LECreateConnectionCancel: HCICommand {
    public static let opcode = HCIOpcode.leCreateConnectionCancel

    public init() {}

    public var parameterCapacity: Int { 0 }

    public func encodeParameters(into w: inout ByteWriter) {}

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self { Self() }
}
