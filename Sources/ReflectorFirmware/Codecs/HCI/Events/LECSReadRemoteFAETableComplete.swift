import WireFormat

/// LE CS Read Remote FAE Table Complete (LE Meta 0x2D): the peer's FAE table, answering
/// LE CS Read Remote FAE Table (Core 6.0 Vol 4 Part E §7.7.65.40).
/// 75 octets: `Status 1 | Connection_Handle 2 | Remote_FAE_Table int8[72]`.
public struct LECSReadRemoteFAETableComplete: LEMetaSubevent {
    public static let subeventCode: UInt8 = LESubeventCode.csReadRemoteFAETableComplete
    public static var name: StaticString { "LE CS Read Remote FAE Table Complete" }
    public static let parameterLength = 75
    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var table: FAETable

    public init(status: HCIStatus = .success, connectionHandle: UInt16, table: FAETable) {
        (self.status, self.connectionHandle, self.table) = (status, connectionHandle, table)
    }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        table.encode(into: &w)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSReadRemoteFAETableComplete {
        let s = try r.status()
        let h = try r.connectionHandle()
        let t = try FAETable.decode(from: &r)
        return LECSReadRemoteFAETableComplete(status: s, connectionHandle: h, table: t)
    }
}
