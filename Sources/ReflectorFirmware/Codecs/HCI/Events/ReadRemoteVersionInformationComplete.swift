import WireFormat

/// Read Remote Version Information Complete (event 0x0C, Core 6.0 Vol 4 Part E §7.7.12):
/// `Status 1 | Connection_Handle 2 | Version 1 | Company_Identifier 2 | Subversion 2`.
/// Version uses the Assigned Numbers (0x0E = 6.0, 0x11 = 6.3).
public struct ReadRemoteVersionInformationComplete: HCIEvent {
    public static let eventCode: UInt8 = HCIEventCode.readRemoteVersionInformationComplete
    public static let parameterLength = 8

    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var version: UInt8
    public var companyIdentifier: UInt16
    public var subversion: UInt16

    public init(status: HCIStatus = .success, connectionHandle: UInt16, version: UInt8, companyIdentifier: UInt16, subversion: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.version = version
        self.companyIdentifier = companyIdentifier
        self.subversion = subversion
    }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.u8(version)
        w.u16(companyIdentifier)
        w.u16(subversion)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let s = try r.status()
        let h = try r.connectionHandle()
        let v = try r.u8("Version")
        let c = try r.u16("Company_Identifier")
        let sub = try r.u16("Subversion")
        return Self(status: s, connectionHandle: h, version: v, companyIdentifier: c, subversion: sub)
    }
}
