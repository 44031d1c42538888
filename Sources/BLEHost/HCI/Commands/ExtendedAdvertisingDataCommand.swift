import ReflectorFirmware

/// The layout LE Set Extended Advertising Data (§7.8.54) and LE Set Extended Scan Response Data
/// (§7.8.55) share (Core 6.0 Vol 4 Part E): one fragment of an advertising set's data,
/// `Advertising_Handle 1 (0–0xEF) | Operation 1 (0–4) | Fragment_Preference 1 (0–1) |
/// Length 1 (0–251) | Data n`. The two commands differ only in opcode and field names.
public protocol ExtendedAdvertisingDataCommand: HCICommand {
    var advertisingHandle: UInt8 { get }
    /// Intermediate 0, first 1, last 2, complete 3, unchanged 4.
    var operation: UInt8 { get }
    /// 0: the controller may fragment; 1: it should not.
    var fragmentPreference: UInt8 { get }
    /// At most 251 octets (more are cut when encoding).
    var data: [UInt8] { get }
    init(advertisingHandle: UInt8, operation: UInt8, fragmentPreference: UInt8, data: [UInt8])
    /// The spec's names of the length and data fields, for decode errors.
    static var lengthField: StaticString { get }
    static var dataField: StaticString { get }
}

extension ExtendedAdvertisingDataCommand {
    public var parameterCapacity: Int { 4 + min(data.count, 251) }

    public func encodeParameters(into w: inout ByteWriter) {
        let d = data.prefix(251)
        w.u8(advertisingHandle)
        w.u8(operation)
        w.u8(fragmentPreference)
        w.u8(UInt8(d.count))
        w.octets(d)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let handle = try r.u8("Advertising_Handle", in: 0...0xEF)
        let op = try r.u8("Operation", in: 0...4)
        let frag = try r.u8("Fragment_Preference", in: 0...1)
        return Self(advertisingHandle: handle, operation: op, fragmentPreference: frag,
                    data: try r.lengthPrefixed(lengthField, dataField, maximum: 251))
    }
}
