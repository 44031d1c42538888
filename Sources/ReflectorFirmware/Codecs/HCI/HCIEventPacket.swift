import WireFormat

/// An HCI event packet without its H4 indicator (Core 6.0 Vol 4 Part E §5.4.4), and the
/// LE Meta event (0x3E) wrapper whose first parameter is the subevent code (§7.7.65).
///
/// Layout: `Event_Code 1 | Parameter_Total_Length 1 | Parameters`.
public struct HCIEventPacket: Sendable, Equatable {
    public var eventCode: UInt8
    public var parameters: [UInt8]

    /// The parameter length is one octet.
    public static let maxParameterLength = 255
    /// Command Complete (§7.7.14).
    public static let commandCompleteCode: UInt8 = 0x0E
    /// Command Status (§7.7.15).
    public static let commandStatusCode: UInt8 = 0x0F
    /// LE Meta (§7.7.65).
    public static let leMetaCode: UInt8 = 0x3E

    public init(eventCode: UInt8, parameters: [UInt8]) {
        self.eventCode = eventCode
        self.parameters = parameters
    }

    /// An LE Meta event: the subevent code followed by the subevent's parameters.
    public init(leSubevent code: UInt8, body: [UInt8]) {
        eventCode = HCIEventPacket.leMetaCode
        parameters = [code] + body
    }

    /// The subevent code when this is a non-empty LE Meta event.
    public var leSubeventCode: UInt8? {
        guard eventCode == HCIEventPacket.leMetaCode, let first = parameters.first else { return nil }
        return first
    }

    /// The subevent parameters after the subevent code, checking that this is LE Meta event
    /// `subevent` (`.unexpectedCode` otherwise).
    public func leSubeventBody(_ subevent: UInt8) throws(DecodeError) -> ArraySlice<UInt8> {
        guard eventCode == HCIEventPacket.leMetaCode else {
            throw .unexpectedCode(expected: Int(HCIEventPacket.leMetaCode), found: Int(eventCode))
        }
        guard let first = parameters.first else { throw .truncated(field: "Subevent_Code", needed: 1) }
        guard first == subevent else { throw .unexpectedCode(expected: Int(subevent), found: Int(first)) }
        return parameters.dropFirst()
    }

    /// The packet octets. Traps if `parameters` exceeds 255 octets (a programming error).
    public func encode() -> [UInt8] {
        precondition(parameters.count <= HCIEventPacket.maxParameterLength, "HCI event parameters exceed 255 octets")
        var w = ByteWriter(capacity: 2 + parameters.count)
        w.u8(eventCode)
        w.u8(UInt8(parameters.count))
        w.octets(parameters)
        return w.bytes
    }

    /// Parses one whole packet; the length octet must match the octets that follow exactly.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> HCIEventPacket {
        var r = ByteReader(bytes)
        let code = try r.u8("Event_Code")
        let length = Int(try r.u8("Parameter_Total_Length"))
        let params = try r.octets(length, "Parameters")
        try r.expectEnd()
        return HCIEventPacket(eventCode: code, parameters: Array(params))
    }
}
