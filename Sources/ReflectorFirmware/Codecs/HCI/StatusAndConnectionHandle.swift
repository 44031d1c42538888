import WireFormat

/// Parameters that are exactly `Status 1 | Connection_Handle 2` (Core 6.0 Vol 4 Part E): the
/// return parameters of many connection commands and events such as Encryption Key Refresh
/// Complete. The codec is here once; a conforming type adds its opcode or event code.
public protocol StatusAndConnectionHandle: HCIParameters {
    var status: HCIStatus { get }
    var connectionHandle: UInt16 { get }
    init(status: HCIStatus, connectionHandle: UInt16)
}

extension StatusAndConnectionHandle {
    public var parameterCapacity: Int { 3 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let s = try r.status()
        return Self(status: s, connectionHandle: try r.connectionHandle())
    }
}
