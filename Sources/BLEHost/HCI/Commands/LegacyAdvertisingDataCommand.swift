import ReflectorFirmware

/// LE Set Advertising Data (0x2008, §7.8.7) and LE Set Scan Response Data (0x2009, §7.8.8)
/// (Core 6.0 Vol 4 Part E): `Length 1 (0–31) | Data 31`, always 32 octets, the data
/// zero-padded to 31 (as Bumble and Zephyr send it). The decoder takes the significant octets
/// and ignores the padding. The two commands differ only in opcode and field names (`Kind`).
public struct LegacyAdvertisingDataCommand<Kind: AdvertisingDataKind>: HCICommand, HCIFieldCodec {
    public static var opcode: UInt16 { Kind.names.legacy.opcode }
    public static var name: StaticString { Kind.names.legacy.name }

    /// At most 31 octets (more are cut when encoding).
    public var data: [UInt8]

    public init(data: [UInt8]) { self.data = data }

    public static var fields: [HCIField<Self>] {
        let (lengthField, dataField) = (Kind.names.lengthField, Kind.names.dataField)
        return [HCIField(lengthField, size: "1 | \(dataField) 31", octets: { _ in 32 }, write: { v, w in
            let d = v.data.prefix(31)
            w.u8(UInt8(d.count))
            w.octets(d)
            w.octets([UInt8](repeating: 0, count: 31 - d.count))
        }, read: { (r: inout ByteReader, v: inout Self) throws(DecodeError) in
            let n = try r.u8(lengthField, in: 0...31)
            v.data = Array(try r.octets(31, dataField).prefix(Int(n)))
        })]
    }
    public static var blank: Self { Self(data: []) }
}

public typealias LESetAdvertisingData = LegacyAdvertisingDataCommand<AdvertisingDataKinds.Advertising>
public typealias LESetScanResponseData = LegacyAdvertisingDataCommand<AdvertisingDataKinds.ScanResponse>
