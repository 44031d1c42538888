import WireFormat

/// LE CS Remove Config: the host deletes a CS configuration here and in the peer
/// (Core 6.0 Vol 4 Part E §7.8.138). Answered with Command Status then LE Meta event 0x2F
/// with Action 0. Parameters: `Connection_Handle 2 | Config_ID 1`.
public struct LECSRemoveConfig: HCICommand {
    public static let opcode: UInt16 = HCIOpcode.leCSRemoveConfig
    public static let name: StaticString = "LE CS Remove Config"
    public static var answer: HCICommandAnswer { .status }
    public var connectionHandle: UInt16
    public var configID: UInt8

    public init(connectionHandle: UInt16, configID: UInt8) {
        self.connectionHandle = connectionHandle
        self.configID = configID
    }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u8(configID)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSRemoveConfig {
        let h = try r.connectionHandle()
        let id = try r.configID()
        return LECSRemoveConfig(connectionHandle: h, configID: id)
    }
}
