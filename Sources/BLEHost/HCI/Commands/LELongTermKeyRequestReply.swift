import ReflectorFirmware

/// LE Long Term Key Request Reply (0x201A, Core 6.0 Vol 4 Part E §7.8.25): the peripheral's host
/// gives the key. `Connection_Handle 2 | Long_Term_Key 16`; returns `StatusConnectionHandleReturn`.
public struct LELongTermKeyRequestReply: HCICommand {
    public static let opcode = HCIOpcode.leLongTermKeyRequestReply

    public var connectionHandle: UInt16
    /// 16 octets, as on the wire (shorter is zero-padded when encoding).
    public var longTermKey: [UInt8]

    public init(connectionHandle: UInt16, longTermKey: [UInt8]) {
        self.connectionHandle = connectionHandle
        self.longTermKey = longTermKey
    }

    public var parameterCapacity: Int { 18 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.key(longTermKey)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let h = try r.connectionHandle()
        return Self(connectionHandle: h, longTermKey: try r.key("Long_Term_Key"))
    }
}
