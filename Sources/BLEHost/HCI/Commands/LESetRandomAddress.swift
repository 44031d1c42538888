import ReflectorFirmware

/// LE Set Random Address (0x2005, Core 6.0 Vol 4 Part E §7.8.4): `Random_Address 6`.
public struct LESetRandomAddress: HCICommand {
    public static let opcode = HCIOpcode.leSetRandomAddress

    /// The low 48 bits.
    public var address: UInt64

    public init(address: UInt64) { self.address = address }

    public var parameterCapacity: Int { 6 }

    public func encodeParameters(into w: inout ByteWriter) { w.address(address) }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        Self(address: try r.address("Random_Address"))
    }
}
