import WireFormat

/// LE CS Security Enable Complete (LE Meta 0x2E): the CS security start procedure finished and
/// both sides hold the same CS DRBG seed (Core 6.0 Vol 4 Part E §7.7.65.41).
/// 3 octets: `Status 1 | Connection_Handle 2`.
public struct LECSSecurityEnableComplete: LEMetaSubevent, HCIFieldWalk {
    public static let subeventCode: UInt8 = LESubeventCode.csSecurityEnableComplete
    public static var name: StaticString { "LE CS Security Enable Complete" }
    public var status: HCIStatus
    public var connectionHandle: UInt16

    public init(status: HCIStatus = .success, connectionHandle: UInt16) {
        (self.status, self.connectionHandle) = (status, connectionHandle)
    }

    public static var blank: Self { Self(connectionHandle: 0) }

    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.status(&status)
        try c.connectionHandle(&connectionHandle)
    }

}
