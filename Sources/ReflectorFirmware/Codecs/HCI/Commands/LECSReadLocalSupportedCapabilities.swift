import WireFormat

/// LE CS Read Local Supported Capabilities: the host asks its controller what CS features it has.
/// (Core 6.0 Vol 4 Part E §7.8.130). No parameters; Command Complete returns Status and the capabilities block
/// (the `CSCapabilities` codec decodes that body).
public struct LECSReadLocalSupportedCapabilities: HCICommand {
    public static let opcode: UInt16 = 0x2089

    public init() {}

    public func encode() -> [UInt8] { [] }

    public static func decode(_ parameters: some Collection<UInt8>) throws(DecodeError) -> LECSReadLocalSupportedCapabilities {
        let r = ByteReader(parameters)
        try r.expectEnd()
        return LECSReadLocalSupportedCapabilities()
    }
}
