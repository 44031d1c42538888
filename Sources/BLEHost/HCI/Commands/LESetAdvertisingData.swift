import ReflectorFirmware

/// LE Set Advertising Data (0x2008, Core 6.0 Vol 4 Part E §7.8.7): legacy advertising data.
/// `Advertising_Data_Length 1 (0–31) | Advertising_Data 31`: always 32 octets, the data zero-padded to 31 (as
/// Bumble and Zephyr send it). The decoder takes the significant octets and ignores the padding.
public struct LESetAdvertisingData: HCICommand {
    public static let opcode = HCIOpcode.leSetAdvertisingData

    /// At most 31 octets (more are cut when encoding).
    public var data: [UInt8]

    public init(data: [UInt8]) { self.data = data }

    public var parameterCapacity: Int { 32 }

    public func encodeParameters(into w: inout ByteWriter) {
        let d = data.prefix(31)
        w.u8(UInt8(d.count))
        w.octets(d)
        w.octets([UInt8](repeating: 0, count: 31 - d.count))
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let n = try r.u8("Advertising_Data_Length")
        guard n <= 31 else { throw .invalidValue(field: "Advertising_Data_Length", value: Int(n)) }
        let d = try r.octets(31, "Advertising_Data")
        return Self(data: Array(d.prefix(Int(n))))
    }
}
