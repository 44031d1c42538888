import WireFormat

/// LE CS Remove Config: the host deletes a CS configuration here and in the peer
/// (Core 6.0 Vol 4 Part E §7.8.138). Answered with Command Status then LE Meta event 0x2F
/// with Action 0. Parameters: `Connection_Handle 2 | Config_ID 1`.
public struct LECSRemoveConfig: HCICommand, HCIFieldWalk {
    public static let opcode: UInt16 = HCIOpcode.leCSRemoveConfig
    public static var name: StaticString { "LE CS Remove Config" }
    public static var answer: HCICommandAnswer { .status }
    public var connectionHandle: UInt16
    public var configID: UInt8

    public init(connectionHandle: UInt16, configID: UInt8) {
        (self.connectionHandle, self.configID) = (connectionHandle, configID)
    }

    public static var blank: Self { Self(connectionHandle: 0, configID: 0) }

    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.connectionHandle(&connectionHandle)
        try c.configID(&configID)
    }

}
