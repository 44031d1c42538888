import WireFormat

/// LE CS Write Cached Remote FAE Table: the host gives the controller a peer's FAE table it
/// stored earlier, sparing the LL exchange (Core 6.0 Vol 4 Part E §7.8.136). Command Complete
/// returns Status and Connection_Handle. 74 octets: `Connection_Handle 2 | Remote_FAE_Table int8[72]`.
public struct LECSWriteCachedRemoteFAETable: HCIConnectionCommand {
    public static let opcode: UInt16 = HCIOpcode.leCSWriteCachedRemoteFAETable
    public static var name: StaticString { "LE CS Write Cached Remote FAE Table" }
    public typealias ReturnParameters = StatusConnectionHandleReturn
    public static let parameterLength = 74
    public var connectionHandle: UInt16
    public var table: FAETable

    public init(connectionHandle: UInt16, table: FAETable) {
        (self.connectionHandle, self.table) = (connectionHandle, table)
    }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        table.encode(into: &w)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSWriteCachedRemoteFAETable {
        let h = try r.connectionHandle()
        let t = try FAETable.decode(from: &r)
        return LECSWriteCachedRemoteFAETable(connectionHandle: h, table: t)
    }
}
