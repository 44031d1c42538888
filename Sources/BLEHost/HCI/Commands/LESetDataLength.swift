import ReflectorFirmware

/// LE Set Data Length (0x2022, Core 6.0 Vol 4 Part E §7.8.33): `Connection_Handle 2 |
/// TX_Octets 2 (0x001B–0x00FB) | TX_Time 2 (0x0148–0x4290 µs)`; returns `StatusConnectionHandleReturn`.
/// The decoder checks only the lengths: out-of-range values are the controller's to refuse
/// (with Unsupported Feature Or Parameter Value, as the spec says), not a malformed packet.
public struct LESetDataLength: HCICommand {
    public static let opcode = HCIOpcode.leSetDataLength

    public var connectionHandle: UInt16
    public var txOctets: UInt16
    public var txTime: UInt16

    public init(connectionHandle: UInt16, txOctets: UInt16 = 251, txTime: UInt16 = 2120) {
        self.connectionHandle = connectionHandle
        self.txOctets = txOctets
        self.txTime = txTime
    }

    public var parameterCapacity: Int { 6 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u16(txOctets)
        w.u16(txTime)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let h = try r.connectionHandle()
        let o = try r.u16("TX_Octets")
        return Self(connectionHandle: h, txOctets: o, txTime: try r.u16("TX_Time"))
    }
}
