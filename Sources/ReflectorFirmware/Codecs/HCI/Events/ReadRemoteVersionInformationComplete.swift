import WireFormat

/// Read Remote Version Information Complete (event 0x0C, Core 6.0 Vol 4 Part E §7.7.12):
/// `Status 1 | Connection_Handle 2 | Version 1 | Company_Identifier 2 | Subversion 2`.
/// Version uses the Assigned Numbers (0x0E = 6.0, 0x11 = 6.3).
public struct ReadRemoteVersionInformationComplete: HCIEvent, HCIFieldWalk {
    public static let eventCode: UInt8 = HCIEventCode.readRemoteVersionInformationComplete
    public static var name: StaticString { "Read Remote Version Information Complete" }
    public static let parameterLength = 8

    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var version: UInt8
    public var companyIdentifier: UInt16
    public var subversion: UInt16

    public init(status: HCIStatus = .success, connectionHandle: UInt16, version: UInt8, companyIdentifier: UInt16, subversion: UInt16) {
        (self.status, self.connectionHandle, self.version, self.companyIdentifier, self.subversion) = (status, connectionHandle, version, companyIdentifier, subversion)
    }

    public static var blank: Self { Self(connectionHandle: 0, version: 0, companyIdentifier: 0, subversion: 0) }

    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.status(&status); try c.connectionHandle(&connectionHandle)
        try c.u8(&version, "Version"); try c.u16(&companyIdentifier, "Company_Identifier"); try c.u16(&subversion, "Subversion")
    }

}
