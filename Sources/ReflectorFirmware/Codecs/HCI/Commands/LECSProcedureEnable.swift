import WireFormat

/// LE CS Procedure Enable: the host starts or stops CS procedures of a configuration
/// (Core 6.0 Vol 4 Part E §7.8.141). Answered with Command Status then LE Meta event 0x30.
/// Parameters: `Connection_Handle 2 | Config_ID 1 | Enable 1 (0 or 1)`.
public struct LECSProcedureEnable: HCICommand, HCIFieldWalk {
    public static let opcode: UInt16 = HCIOpcode.leCSProcedureEnable
    public static var name: StaticString { "LE CS Procedure Enable" }
    public static var answer: HCICommandAnswer { .status }
    public var connectionHandle: UInt16
    public var configID: UInt8
    public var enable: Bool

    public init(connectionHandle: UInt16, configID: UInt8, enable: Bool) {
        (self.connectionHandle, self.configID, self.enable) = (connectionHandle, configID, enable)
    }

    public static var blank: Self { Self(connectionHandle: 0, configID: 0, enable: false) }

    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.connectionHandle(&connectionHandle)
        try c.configID(&configID)
        try c.flag(&enable, "Enable")
    }

}
