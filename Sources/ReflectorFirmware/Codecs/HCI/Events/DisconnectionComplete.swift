import WireFormat

/// Disconnection Complete (event 0x05, Core 6.0 Vol 4 Part E §7.7.5): the connection is gone.
/// `Status 1 | Connection_Handle 2 | Reason 1`. Status is that of the disconnection itself
/// (0x00 when the link is down); Reason says why: Connection Timeout 0x08 (supervision), Remote
/// User Terminated 0x13, Connection Terminated By Local Host 0x16, LL Response Timeout 0x22
/// (a procedure's T_PRT expired, Vol 6 Part B §5.2), and so on.
public struct DisconnectionComplete: HCIEvent, HCIFieldWalk {
    public static let eventCode: UInt8 = HCIEventCode.disconnectionComplete
    public static var name: StaticString { "Disconnection Complete" }

    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var reason: HCIStatus

    public init(status: HCIStatus = .success, connectionHandle: UInt16, reason: HCIStatus) {
        (self.status, self.connectionHandle, self.reason) = (status, connectionHandle, reason)
    }

    public var parameterCapacity: Int { 4 }

    public static var blank: Self { Self(connectionHandle: 0, reason: .success) }

    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.status(&status)
        try c.connectionHandle(&connectionHandle)
        try c.status(&reason, "Reason")
    }

}
