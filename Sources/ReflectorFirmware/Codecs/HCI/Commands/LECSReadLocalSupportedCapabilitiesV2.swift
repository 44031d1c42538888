import WireFormat

/// LE CS Read Local Supported Capabilities v2 (Core 6.3): as v1, with the IPT timing fields appended to the returned capabilities.
/// (Core 6.3 Vol 4 Part E §7.8.130 (v2 form)). No parameters; Command Complete returns Status and the capabilities block
/// (the `CSCapabilities` codec decodes that body).
public struct LECSReadLocalSupportedCapabilitiesV2: HCICommand {
    public static let opcode: UInt16 = HCIOpcode.leCSReadLocalSupportedCapabilitiesV2
    public static var name: StaticString { "LE CS Read Local Supported Capabilities v2" }
    public typealias ReturnParameters = LECSLocalCapabilitiesReturn

    public init() {}

    public func encodeParameters(into w: inout ByteWriter) {}

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSReadLocalSupportedCapabilitiesV2 {
        return LECSReadLocalSupportedCapabilitiesV2()
    }
}
