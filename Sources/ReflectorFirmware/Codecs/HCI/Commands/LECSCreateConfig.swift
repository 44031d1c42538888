import WireFormat

/// LE CS Create Config: the host sets up one CS configuration, locally or also in the peer
/// through the LL CS Configuration procedure (Core 6.0 Vol 4 Part E §7.8.137; the last octet is
/// CS_Enhancements_1 in Core 6.3). Answered with Command Status then LE Meta event 0x2F.
///
/// 28 octets: `Connection_Handle 2 | Config_ID 1 | Create_Context 1 |` the 24-octet block of
/// `CSConfiguration` (see `CSConfiguration+HCI.swift`). The configuration's `timing` is not
/// carried (Config Complete reports it); a decoded configuration has default timing.
public struct LECSCreateConfig: HCICommand {
    public static let opcode: UInt16 = HCIOpcode.leCSCreateConfig
    public static var name: StaticString { "LE CS Create Config" }
    public static var answer: HCICommandAnswer { .status }
    public static let parameterLength = 28

    /// Create_Context: 0 = this controller only, 1 = this controller and the peer's.
    public enum CreateContext: UInt8, Sendable, Equatable, CaseIterable {
        case localOnly = 0
        case localAndRemote = 1
    }

    public var connectionHandle: UInt16
    public var createContext: CreateContext
    /// The configuration; `configuration.configID` is Config_ID.
    public var configuration: CSConfiguration

    public init(connectionHandle: UInt16, createContext: CreateContext = .localAndRemote, configuration: CSConfiguration) {
        (self.connectionHandle, self.createContext, self.configuration) = (connectionHandle, createContext, configuration)
    }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u8(configuration.configID)
        w.u8(createContext.rawValue)
        configuration.encodeHCIFields(into: &w)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSCreateConfig {
        let h = try r.connectionHandle()
        let id = try r.configID()
        let ctx = try r.value("Create_Context", as: CreateContext.self)
        let config = try CSConfiguration.decodeHCIFields(configID: id, from: &r)
        return LECSCreateConfig(connectionHandle: h, createContext: ctx, configuration: config)
    }
}
