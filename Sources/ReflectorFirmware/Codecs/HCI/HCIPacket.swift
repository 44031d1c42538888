import WireFormat

/// One HCI packet as it crosses the host–controller boundary: the H4 packet indicator and the
/// packet itself (header and payload, exactly as Core 6.0 Vol 4 Part E §5.4 lays them out). The
/// one packet model of the project: the controller parses commands and builds events with it,
/// the hosts the other way round, and the transports (H4 framing, btsnoop captures, serial
/// links) carry it.
///
/// The value holds bytes, not a parsed message: a transport and a capture file must carry
/// whatever the peer sent, including packets whose header disagrees with their length (a
/// truncated btsnoop record, say). The accessors read header fields and return `nil` when the
/// packet is of another type or too short to hold the field, so they never trap;
/// `init(_:decoding:)` (and `init(command:)`, `init(event:)`) accept only a packet whose length
/// octets match exactly, and the typed codecs (`HCICommand`, `HCIEvent`, `LEMetaSubevent`)
/// read their parameters through the throwing accessors.
public struct HCIPacket: Sendable, Hashable {
    /// What kind of packet this is (the H4 indicator octet, Vol 4 Part A §2).
    public var indicator: HCIPacketIndicator
    /// The packet after the indicator: header, then parameters or data.
    public var bytes: [UInt8]

    public init(indicator: HCIPacketIndicator, bytes: [UInt8]) {
        (self.indicator, self.bytes) = (indicator, bytes)
    }

    // MARK: Building

    /// A packet of `indicator` with `header` (the fields before the length) and `payload`.
    /// Traps if the payload does not fit the length field (a programming error; see the
    /// throwing builders for values from outside).
    init(_ indicator: HCIPacketIndicator, header: UInt64, payload: some Collection<UInt8>) {
        precondition(payload.count <= indicator.maximumPayloadLength, "HCI payload exceeds its length field")
        var w = ByteWriter(capacity: indicator.headerLength + payload.count)
        w.uint(header, indicator.lengthFieldOffset)
        w.uint(UInt64(payload.count), indicator.lengthFieldWidth)
        w.octets(payload)
        self.init(indicator: indicator, bytes: w.bytes)
    }

    /// A command packet: `Opcode 2 (OCF bits 0–9, OGF bits 10–15) | Parameter_Total_Length 1 |
    /// Parameters` (§5.4.1). Traps beyond 255 parameter octets (a programming error).
    public init(opcode: UInt16, parameters: some Collection<UInt8>) {
        self.init(.command, header: UInt64(opcode), payload: parameters)
    }

    /// An event packet: `Event_Code 1 | Parameter_Total_Length 1 | Parameters` (§5.4.4). Traps
    /// beyond 255 parameter octets (a programming error).
    public init(eventCode: UInt8, parameters: some Collection<UInt8>) {
        self.init(.event, header: UInt64(eventCode), payload: parameters)
    }

    /// An LE Meta event (§7.7.65): the subevent code followed by the subevent's parameters.
    public init(leSubevent code: UInt8, body: some Collection<UInt8>) {
        var parameters = [code]
        parameters.append(contentsOf: body)
        self.init(eventCode: HCIEventCode.leMeta, parameters: parameters)
    }

    /// Builds a command packet, or throws if the parameters do not fit.
    public static func command(opcode: UInt16, parameters: [UInt8] = []) throws(HCIPacketError) -> HCIPacket {
        try checkFits(.command, parameters)
        return HCIPacket(opcode: opcode, parameters: parameters)
    }

    /// Builds an event packet, or throws if the parameters do not fit.
    public static func event(code: UInt8, parameters: [UInt8] = []) throws(HCIPacketError) -> HCIPacket {
        try checkFits(.event, parameters)
        return HCIPacket(eventCode: code, parameters: parameters)
    }

    /// Builds an ACL data packet: handle (12 bits) with the packet-boundary and broadcast flags
    /// in the top four bits, then the 16-bit data length (§5.4.2).
    public static func acl(
        handle: UInt16, packetBoundary: UInt8 = 0b10, broadcast: UInt8 = 0, data: [UInt8]
    ) throws(HCIPacketError) -> HCIPacket {
        try checkFits(.aclData, data)
        let field = (handle & 0x0FFF) | UInt16(packetBoundary & 0b11) << 12 | UInt16(broadcast & 0b11) << 14
        return HCIPacket(.aclData, header: UInt64(field), payload: data)
    }

    private static func checkFits(_ indicator: HCIPacketIndicator, _ payload: [UInt8]) throws(HCIPacketError) {
        guard payload.count <= indicator.maximumPayloadLength else {
            throw .payloadTooLong(indicator: indicator, length: payload.count, maximum: indicator.maximumPayloadLength)
        }
    }

    // MARK: Parsing

    /// Parses one whole H4 packet (indicator first). The header's length must match the octets
    /// that follow it exactly: use `H4Framer` to cut a stream into packets.
    public init(h4 bytes: [UInt8]) throws(HCIPacketError) {
        guard let first = bytes.first else { throw .empty }
        guard let indicator = HCIPacketIndicator(rawValue: first) else { throw .unknownIndicator(first) }
        let rest = Array(bytes.dropFirst())
        guard let declared = indicator.payloadLength(inHeader: rest) else {
            throw .lengthMismatch(declared: nil, actual: rest.count)
        }
        guard rest.count == indicator.headerLength + declared else {
            throw .lengthMismatch(declared: declared, actual: rest.count - indicator.headerLength)
        }
        self.init(indicator: indicator, bytes: rest)
    }

    /// Parses one whole packet of `indicator` (no indicator octet): the header, then exactly the
    /// payload it declares (`.truncated` naming the field when short, `.trailingBytes` when long).
    public init(_ indicator: HCIPacketIndicator, decoding bytes: some Collection<UInt8>) throws(DecodeError) {
        var r = ByteReader(bytes)
        let length = try indicator.readHeader(&r)
        try r.skip(length, indicator == .command || indicator == .event ? "Parameters" : "Data")
        try r.expectEnd()
        self.init(indicator: indicator, bytes: Array(r.bytes))
    }

    /// Parses one whole command packet (`Opcode | Parameter_Total_Length | Parameters`).
    public init(command bytes: some Collection<UInt8>) throws(DecodeError) { try self.init(.command, decoding: bytes) }

    /// Parses one whole event packet (`Event_Code | Parameter_Total_Length | Parameters`).
    public init(event bytes: some Collection<UInt8>) throws(DecodeError) { try self.init(.event, decoding: bytes) }

    // MARK: Octets

    /// The packet without its indicator, as the controller model takes and gives it.
    public func encode() -> [UInt8] { bytes }

    /// The H4 encoding: the indicator octet followed by the packet, as written to a UART and to
    /// a btsnoop file of datalink 1002.
    public var h4Bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1 + bytes.count)
        out.append(indicator.rawValue)
        out.append(contentsOf: bytes)
        return out
    }

    /// The payload length the header declares, or `nil` if the header is incomplete.
    public var declaredPayloadLength: Int? { indicator.payloadLength(inHeader: bytes) }

    /// The octets after the header (parameters or data), or `nil` if the header is incomplete.
    public var payload: ArraySlice<UInt8>? {
        bytes.count >= indicator.headerLength ? bytes[indicator.headerLength...] : nil
    }

    /// The parameters (or data) after the header, as an array indexed from 0; empty if the
    /// header is incomplete.
    public var parameters: [UInt8] { Array(payload ?? []) }

    /// The first header field (opcode, handle and flags, or event code), if this is an `indicator` packet.
    private func headerField(_ indicator: HCIPacketIndicator) -> UInt64? {
        guard self.indicator == indicator else { return nil }
        var r = ByteReader(bytes)
        return try? r.uint(indicator.lengthFieldOffset, indicator.headerFieldName)
    }

    // MARK: Commands (Vol 4 Part E §5.4.1)

    /// The command opcode, `(OGF << 10) | OCF`, or `nil` for other packets.
    public var opcode: UInt16? { headerField(.command).map { UInt16(truncatingIfNeeded: $0) } }

    /// OGF, the opcode group (0x08 for LE commands).
    public var ogf: UInt8? { opcode.map { UInt8(truncatingIfNeeded: $0 >> 10) } }
    /// OCF, the command within its group.
    public var ocf: UInt16? { opcode.map { $0 & 0x03FF } }

    /// The command's Parameter_Total_Length, or `nil` for other packets.
    public var commandParameterLength: UInt8? {
        guard indicator == .command, let n = declaredPayloadLength else { return nil }
        return UInt8(n)
    }

    /// The parameters of command `opcode`: `.unexpectedCode` for another opcode (or, for a packet
    /// that is no command, its indicator where the command indicator was expected).
    public func parameters(ofCommand opcode: UInt16) throws(DecodeError) -> ArraySlice<UInt8> {
        try parameters(of: .command, header: UInt64(opcode))
    }

    /// The payload of an `expected` packet whose first header field is `header`.
    private func parameters(of expected: HCIPacketIndicator, header: UInt64) throws(DecodeError) -> ArraySlice<UInt8> {
        guard indicator == expected else {
            throw .unexpectedCode(expected: Int(expected.rawValue), found: Int(indicator.rawValue))
        }
        var r = ByteReader(bytes)
        let found = try r.uint(expected.lengthFieldOffset, expected.headerFieldName)
        guard found == header else { throw .unexpectedCode(expected: Int(header), found: Int(found)) }
        return payload ?? []
    }

    // MARK: Events (Vol 4 Part E §5.4.4)

    /// The event code, or `nil` for other packets.
    public var eventCode: UInt8? { headerField(.event).map { UInt8(truncatingIfNeeded: $0) } }

    /// The event's Parameter_Total_Length, or `nil` for other packets.
    public var eventParameterLength: UInt8? {
        guard indicator == .event, let n = declaredPayloadLength else { return nil }
        return UInt8(n)
    }

    /// The parameters of event `code`: `.unexpectedCode` for another event code (or, for a
    /// packet that is no event, its indicator where the event indicator was expected).
    public func parameters(ofEvent code: UInt8) throws(DecodeError) -> ArraySlice<UInt8> {
        try parameters(of: .event, header: UInt64(code))
    }

    /// The subevent code when this is a non-empty LE Meta event.
    public var leSubeventCode: UInt8? {
        guard eventCode == HCIEventCode.leMeta else { return nil }
        return payload?.first
    }

    /// The subevent parameters after the subevent code, checking that this is LE Meta event
    /// `subevent` (`.unexpectedCode` otherwise).
    public func leSubeventBody(_ subevent: UInt8) throws(DecodeError) -> ArraySlice<UInt8> {
        let p = try parameters(ofEvent: HCIEventCode.leMeta)
        guard let first = p.first else { throw .truncated(field: "Subevent_Code", needed: 1) }
        guard first == subevent else { throw .unexpectedCode(expected: Int(subevent), found: Int(first)) }
        return p.dropFirst()
    }

    // MARK: ACL data (Vol 4 Part E §5.4.2)

    /// The 12-bit connection handle of an ACL packet, or `nil` for other packets.
    public var aclHandle: UInt16? { headerField(.aclData).map { UInt16(truncatingIfNeeded: $0) & 0x0FFF } }

    /// The Packet_Boundary_Flag (2 bits) of an ACL packet, or `nil` for other packets.
    public var aclPacketBoundary: UInt8? { headerField(.aclData).map { UInt8(truncatingIfNeeded: $0 >> 12) & 0b11 } }

    /// The Broadcast_Flag (2 bits) of an ACL packet, or `nil` for other packets.
    public var aclBroadcast: UInt8? { headerField(.aclData).map { UInt8(truncatingIfNeeded: $0 >> 14) & 0b11 } }

    /// The 16-bit Data_Total_Length of an ACL packet, or `nil` for other packets.
    public var aclDataLength: UInt16? {
        guard indicator == .aclData, let n = declaredPayloadLength else { return nil }
        return UInt16(n)
    }
}
