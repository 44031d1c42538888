import WireFormat

/// LE CS Procedure Enable: the host starts or stops CS procedures of a configuration
/// (Core 6.0 Vol 4 Part E §7.8.141). Answered with Command Status then LE Meta event 0x30.
/// Parameters: `Connection_Handle 2 | Config_ID 1 | Enable 1 (0 or 1)`.
public struct LECSProcedureEnable: HCICommand {
    public static let opcode: UInt16 = HCIOpcode.leCSProcedureEnable
    public static let name: StaticString = "LE CS Procedure Enable"
    public static var answer: HCICommandAnswer { .status }
    public var connectionHandle: UInt16
    public var configID: UInt8
    public var enable: Bool

    public init(connectionHandle: UInt16, configID: UInt8, enable: Bool) {
        self.connectionHandle = connectionHandle
        self.configID = configID
        self.enable = enable
    }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u8(configID)
        w.u8(enable ? 1 : 0)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSProcedureEnable {
        let h = try r.connectionHandle()
        let id = try r.configID()
        let e = try r.u8("Enable")
        guard e <= 1 else { throw .invalidValue(field: "Enable", value: Int(e)) }
        return LECSProcedureEnable(connectionHandle: h, configID: id, enable: e == 1)
    }
}
