import WireFormat

/// The return parameters of LE CS Read Local Supported Capabilities (0x2089, Core 6.0 Vol 4
/// Part E §7.8.130) and of its Core 6.3 v2 form (0x20A5) in Command Complete:
/// `Status 1 | capabilities block (28, or 31/34 for v2)`. A failed command returns Status alone.
public struct LECSLocalCapabilitiesReturn: HCIParametersEncodable {
    public var status: HCIStatus
    public var capabilities: CSCapabilities
    public var layout: CapabilitiesLayout

    public init(status: HCIStatus = .success, capabilities: CSCapabilities, layout: CapabilitiesLayout) {
        (self.status, self.capabilities, self.layout) = (status, capabilities, layout)
    }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        if status == .success { capabilities.encodeHCI(into: &w, layout: layout) }
    }

    public var parameterCapacity: Int { 1 + layout.byteCount }

    /// Decodes the return of the v1 command (`v2: false`) or the v2 command (`v2: true`). After
    /// a failed Status, whatever else the controller returned is implementation specific (Core 6.0
    /// Vol 4 Part E §4.5): a block, if there is one, must still be well-formed, but the value keeps
    /// only the Status, as `encode()` writes it.
    public static func decode(_ parameters: some Collection<UInt8>, v2: Bool) throws(DecodeError) -> LECSLocalCapabilitiesReturn {
        var r = ByteReader(parameters)
        let s = try r.status()
        let failed = LECSLocalCapabilitiesReturn(status: s, capabilities: CSCapabilities(), layout: v2 ? .v2 : .v1)
        if s != .success && r.isAtEnd { return failed }
        let (caps, layout) = try CSCapabilities.readBlock(&r, layouts: v2 ? CSCapabilities.v2Layouts : [.v1])
        return s == .success ? LECSLocalCapabilitiesReturn(status: s, capabilities: caps, layout: layout) : failed
    }
}
