import WireFormat

/// LE CS Config Complete (LE Meta 0x2F): a CS configuration was created or removed, with the
/// times the two controllers agreed on (Core 6.0 Vol 4 Part E §7.7.65.42).
///
/// 33 octets: `Status 1 | Connection_Handle 2 | Config_ID 1 | Action 1 (0 removed, 1 created) |`
/// the 24-octet block of `CSConfiguration` `| T_IP1_Time 1 | T_IP2_Time 1 | T_FCS_Time 1 |
/// T_PM_Time 1` (times in microseconds; T_SW is not reported and decodes as 0).
///
/// The fields after Action are meaningful only when Status is success and Action is
/// "created"; otherwise `configuration` is `nil`, the encoder writes zeros there and the
/// decoder ignores them.
public struct LECSConfigComplete: LEMetaSubevent {
    public static let subeventCode: UInt8 = LESubeventCode.csConfigComplete
    public static var name: StaticString { "LE CS Config Complete" }
    public static let parameterLength = 33

    public enum Action: UInt8, Sendable, Equatable, CaseIterable {
        case removed = 0
        case created = 1
    }

    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var configID: UInt8
    public var action: Action
    /// The created configuration, with `timing` holding T_IP1, T_IP2, T_FCS and T_PM.
    public var configuration: CSConfiguration?

    public init(status: HCIStatus = .success, connectionHandle: UInt16, configID: UInt8, action: Action,
                configuration: CSConfiguration?) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.configID = configID
        self.action = action
        self.configuration = configuration
    }

    /// A successful "created" event for `configuration` (Config_ID taken from it).
    public init(connectionHandle: UInt16, created configuration: CSConfiguration) {
        self.init(connectionHandle: connectionHandle, configID: configuration.configID, action: .created,
                  configuration: configuration)
    }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.u8(configID)
        w.u8(action.rawValue)
        if let c = configuration {
            c.encodeHCIFields(into: &w)
            w.u8(UInt8(truncatingIfNeeded: c.timing.tIP1))
            w.u8(UInt8(truncatingIfNeeded: c.timing.tIP2))
            w.u8(UInt8(truncatingIfNeeded: c.timing.tFCS))
            w.u8(UInt8(truncatingIfNeeded: c.timing.tPM))
        } else {
            w.octets(repeatElement(UInt8(0), count: CSConfiguration.hciFieldsLength + 4))
        }
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSConfigComplete {
        try decodeParameters(&r, strict: true)
    }

    /// The event as a host meeting controllers in the field reads it: a time outside its table
    /// (§7.7.65.42 allows only the selectable times; RootCanal 1.13 reports all four as 0) is
    /// kept as reported instead of refusing the event, so the host can say so and go on (the
    /// times are the controllers' business; a host only shows them).
    public static func decodeKeepingUnlistedTimes(_ parameters: some Collection<UInt8>) throws(DecodeError) -> LECSConfigComplete {
        var r = ByteReader(parameters)
        let event = try decodeParameters(&r, strict: false)
        try r.expectEnd()
        return event
    }

    private static func decodeParameters(_ r: inout ByteReader, strict: Bool) throws(DecodeError) -> LECSConfigComplete {
        let s = try r.status()
        let h = try r.connectionHandle()
        let id = try r.configID()
        let action = try r.value("Action", as: Action.self)
        var config: CSConfiguration? = nil
        if s == .success && action == .created {
            var c = try CSConfiguration.decodeHCIFields(configID: id, from: &r)
            let ip1 = try time(&r, "T_IP1_Time", .tIP1, strict)
            let ip2 = try time(&r, "T_IP2_Time", .tIP2, strict)
            let fcs = try time(&r, "T_FCS_Time", .tFCS, strict)
            let pm = try time(&r, "T_PM_Time", .tPM, strict)
            c.timing = CSTiming(tIP1: ip1, tIP2: ip2, tFCS: fcs, tPM: pm, tSW: 0)
            config = c
        } else {
            _ = try r.octets(CSConfiguration.hciFieldsLength + 4, "Configuration")
        }
        return LECSConfigComplete(status: s, connectionHandle: h, configID: id, action: action, configuration: config)
    }

    /// A time in µs, which must be one of `kind`'s table (`TimeKind`) unless not `strict`.
    private static func time(_ r: inout ByteReader, _ field: StaticString, _ kind: TimeKind, _ strict: Bool) throws(DecodeError) -> UInt16 {
        let v = UInt16(try r.u8(field))
        guard !strict || kind.index(ofMicroseconds: v) != nil else { throw .invalidValue(field: field, value: Int(v)) }
        return v
    }
}
