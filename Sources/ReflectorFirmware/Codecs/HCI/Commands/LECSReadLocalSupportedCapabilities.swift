import WireFormat

/// LE CS Read Local Supported Capabilities: the host asks its controller what CS features it has.
/// (Core 6.0 Vol 4 Part E §7.8.130). No parameters; Command Complete returns Status and the capabilities block
/// (the `CSCapabilities` codec decodes that body).
public struct LECSReadLocalSupportedCapabilities: HCICommand {
    public static let opcode: UInt16 = HCIOpcode.leCSReadLocalSupportedCapabilities
    public static var name: StaticString { "LE CS Read Local Supported Capabilities" }
    public typealias ReturnParameters = LECSLocalCapabilitiesReturn

    public init() {}

    public func encodeParameters(into w: inout ByteWriter) {}

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSReadLocalSupportedCapabilities {
        return LECSReadLocalSupportedCapabilities()
    }
}
