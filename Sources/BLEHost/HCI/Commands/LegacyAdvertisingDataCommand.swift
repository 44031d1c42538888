import ReflectorFirmware

/// The layout LE Set Advertising Data (§7.8.7) and LE Set Scan Response Data (§7.8.8) share
/// (Core 6.0 Vol 4 Part E): `Length 1 (0–31) | Data 31`, always 32 octets, the data zero-padded
/// to 31 (as Bumble and Zephyr send it). The decoder takes the significant octets and ignores
/// the padding. The two commands differ only in opcode and field names.
public protocol LegacyAdvertisingDataCommand: HCICommand {
    /// At most 31 octets (more are cut when encoding).
    var data: [UInt8] { get }
    init(data: [UInt8])
    /// The spec's names of the two fields, for decode errors.
    static var lengthField: StaticString { get }
    static var dataField: StaticString { get }
}

extension LegacyAdvertisingDataCommand {
    public var parameterCapacity: Int { 32 }

    public func encodeParameters(into w: inout ByteWriter) {
        let d = data.prefix(31)
        w.u8(UInt8(d.count))
        w.octets(d)
        w.octets([UInt8](repeating: 0, count: 31 - d.count))
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let n = try r.u8(lengthField)
        guard n <= 31 else { throw .invalidValue(field: lengthField, value: Int(n)) }
        let d = try r.octets(31, dataField)
        return Self(data: Array(d.prefix(Int(n))))
    }
}
