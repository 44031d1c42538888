import WireFormat

/// LE CS Read Remote Supported Capabilities Complete (LE Meta 0x2C, Core 6.0 Vol 4 Part E
/// §7.7.65.39), and its Core 6.3 v2 form (0x38) carrying the v2 block:
/// `Status 1 | Connection_Handle 2 | capabilities block`.
public struct LECSReadRemoteSupportedCapabilitiesComplete: HCIParametersEncodable {
    public static let subeventCode: UInt8 = LESubeventCode.csReadRemoteSupportedCapabilitiesComplete
    public static let v2SubeventCode: UInt8 = LESubeventCode.csReadRemoteSupportedCapabilitiesCompleteV2
    /// The spec's name of the subevent (either form), for messages.
    public static var name: StaticString { "LE CS Read Remote Supported Capabilities Complete" }
    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var capabilities: CSCapabilities
    /// `.v1` for event 0x2C; `.v2` or `.v2WithPHYSpecificRTT` for event 0x38.
    public var layout: CapabilitiesLayout

    public init(status: HCIStatus = .success, connectionHandle: UInt16, capabilities: CSCapabilities, layout: CapabilitiesLayout = .v1) {
        (self.status, self.connectionHandle, self.capabilities, self.layout) = (status, connectionHandle, capabilities, layout)
    }

    public var eventCode: UInt8 { layout == .v1 ? Self.subeventCode : Self.v2SubeventCode }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        capabilities.encodeHCI(into: &w, layout: layout)
    }

    public var parameterCapacity: Int { 3 + layout.byteCount }

    public var packet: HCIPacket { HCIPacket(leSubevent: eventCode, body: encode()) }

    /// Decodes the parameters of event 0x2C (`v2: false`) or 0x38 (`v2: true`).
    public static func decode(_ parameters: some Collection<UInt8>, v2: Bool) throws(DecodeError) -> Self {
        var r = ByteReader(parameters)
        let s = try r.status()
        let h = try r.connectionHandle()
        let (caps, layout) = try CSCapabilities.readBlock(&r, layouts: v2 ? CSCapabilities.v2Layouts : [.v1])
        return Self(status: s, connectionHandle: h, capabilities: caps, layout: layout)
    }

    /// Decodes either event from an LE Meta packet.
    public static func decode(packet: HCIPacket) throws(DecodeError) -> Self {
        if let code = packet.leSubeventCode, code == v2SubeventCode {
            return try decode(try packet.leSubeventBody(v2SubeventCode), v2: true)
        }
        return try decode(try packet.leSubeventBody(subeventCode), v2: false)
    }
}
