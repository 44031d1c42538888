import ReflectorFirmware

/// LE Set Advertising Enable (0x200A, Core 6.0 Vol 4 Part E §7.8.9): `Advertising_Enable 1 (0–1)`.
public struct LESetAdvertisingEnable: HCICommand {
    public static let opcode = HCIOpcode.leSetAdvertisingEnable

    public var enable: Bool

    public init(enable: Bool) { self.enable = enable }

    public var parameterCapacity: Int { 1 }

    public func encodeParameters(into w: inout ByteWriter) { w.flag(enable) }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        Self(enable: try r.flag("Advertising_Enable"))
    }
}
