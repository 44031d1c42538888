import WireFormat

/// LE CS Write Cached Remote Supported Capabilities (0x208B, Core 6.0 Vol 4 Part E §7.8.132):
/// the host hands the controller a peer's capabilities it cached earlier, sparing the LL
/// exchange. `Connection_Handle 2 | capabilities block (28)`; Command Complete returns Status
/// and Connection_Handle.
public struct LECSWriteCachedRemoteSupportedCapabilities: HCIConnectionCommand {
    public static let opcode: UInt16 = HCIOpcode.leCSWriteCachedRemoteSupportedCapabilities
    public static var name: StaticString { "LE CS Write Cached Remote Supported Capabilities" }
    public typealias ReturnParameters = StatusConnectionHandleReturn

    public var connectionHandle: UInt16
    public var capabilities: CSCapabilities

    public init(connectionHandle: UInt16, capabilities: CSCapabilities) {
        (self.connectionHandle, self.capabilities) = (connectionHandle, capabilities)
    }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        capabilities.encodeHCI(into: &w, layout: .v1)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let h = try r.connectionHandle()
        return Self(connectionHandle: h, capabilities: try CSCapabilities.readBlock(&r, layouts: [.v1]).0)
    }
}

/// LE CS Write Cached Remote Supported Capabilities v2 (0x20A6, Core 6.3): as 0x208B with the
/// v2 block (31 octets, or 34 with the PHY-specific RTT N values).
public struct LECSWriteCachedRemoteSupportedCapabilitiesV2: HCIConnectionCommand {
    public static let opcode: UInt16 = HCIOpcode.leCSWriteCachedRemoteSupportedCapabilitiesV2
    public static var name: StaticString { "LE CS Write Cached Remote Supported Capabilities v2" }
    public typealias ReturnParameters = StatusConnectionHandleReturn

    public var connectionHandle: UInt16
    public var capabilities: CSCapabilities
    public var layout: CapabilitiesLayout

    public init(connectionHandle: UInt16, capabilities: CSCapabilities, layout: CapabilitiesLayout = .v2) {
        self.connectionHandle = connectionHandle
        self.capabilities = capabilities
        self.layout = layout == .v1 ? .v2 : layout
    }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        capabilities.encodeHCI(into: &w, layout: layout)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let h = try r.connectionHandle()
        let (caps, layout) = try CSCapabilities.readBlock(&r, layouts: CSCapabilities.v2Layouts)
        return Self(connectionHandle: h, capabilities: caps, layout: layout)
    }
}
