import WireFormat

/// One HCI packet as it crosses the host–controller boundary: the H4 packet indicator and the
/// packet itself (header and payload, exactly as Core 6.0 Vol 4 Part E §5.4 lays them out).
///
/// The value holds bytes, not a parsed message: the transport and the capture file must carry
/// whatever the peer sent, including packets whose header disagrees with their length (a
/// truncated btsnoop record, say). The accessors below read header fields and return `nil` when
/// the packet is of another type or too short to hold the field, so they never trap.
public struct HCIPacket: Sendable, Hashable {
    /// What kind of packet this is (the H4 indicator octet, Vol 4 Part A §2).
    public var indicator: HCIPacketIndicator
    /// The packet after the indicator: header, then parameters or data.
    public var bytes: [UInt8]

    public init(indicator: HCIPacketIndicator, bytes: [UInt8]) {
        self.indicator = indicator
        self.bytes = bytes
    }

    /// Builds a command packet: opcode (little-endian), parameter length, parameters
    /// (Vol 4 Part E §5.4.1).
    public static func command(opcode: UInt16, parameters: [UInt8] = []) throws(HCIPacketError) -> HCIPacket {
        var header = ByteWriter(capacity: 2)
        header.u16(opcode)
        return try withLength(.command, header: header.bytes, payload: parameters)
    }

    /// Builds an event packet: event code, parameter length, parameters (Vol 4 Part E §5.4.4).
    public static func event(code: UInt8, parameters: [UInt8] = []) throws(HCIPacketError) -> HCIPacket {
        try withLength(.event, header: [code], payload: parameters)
    }

    /// Builds an ACL data packet: handle (12 bits) with the packet-boundary and broadcast flags
    /// in the top four bits, then the 16-bit data length (Vol 4 Part E §5.4.2).
    public static func acl(
        handle: UInt16, packetBoundary: UInt8 = 0b10, broadcast: UInt8 = 0, data: [UInt8]
    ) throws(HCIPacketError) -> HCIPacket {
        var header = ByteWriter(capacity: 2)
        header.u16((handle & 0x0FFF) | UInt16(packetBoundary & 0b11) << 12 | UInt16(broadcast & 0b11) << 14)
        return try withLength(.aclData, header: header.bytes, payload: data)
    }

    private static func withLength(
        _ indicator: HCIPacketIndicator, header: [UInt8], payload: [UInt8]
    ) throws(HCIPacketError) -> HCIPacket {
        guard payload.count <= indicator.maximumPayloadLength else {
            throw .payloadTooLong(indicator: indicator, length: payload.count, maximum: indicator.maximumPayloadLength)
        }
        var w = ByteWriter(capacity: indicator.headerLength + payload.count)
        w.octets(header)
        w.uint(UInt64(payload.count), indicator.headerLength - header.count)
        w.octets(payload)
        return HCIPacket(indicator: indicator, bytes: w.bytes)
    }

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

    // MARK: Commands (Vol 4 Part E §5.4.1)

    /// The command opcode, `(OGF << 10) | OCF`, or `nil` for other packets.
    public var opcode: UInt16? {
        guard indicator == .command else { return nil }
        var r = ByteReader(bytes)
        return try? r.u16("Opcode")
    }

    /// The command's Parameter_Total_Length, or `nil` for other packets.
    public var commandParameterLength: UInt8? {
        guard indicator == .command, bytes.count >= 3 else { return nil }
        return bytes[2]
    }

    // MARK: Events (Vol 4 Part E §5.4.4)

    /// The event code, or `nil` for other packets.
    public var eventCode: UInt8? {
        guard indicator == .event, bytes.count >= 1 else { return nil }
        return bytes[0]
    }

    /// The event's Parameter_Total_Length, or `nil` for other packets.
    public var eventParameterLength: UInt8? {
        guard indicator == .event, bytes.count >= 2 else { return nil }
        return bytes[1]
    }

    // MARK: ACL data (Vol 4 Part E §5.4.2)

    private var aclHeaderField: UInt16? {
        guard indicator == .aclData else { return nil }
        var r = ByteReader(bytes)
        return try? r.u16("Handle")
    }

    /// The 12-bit connection handle of an ACL packet, or `nil` for other packets.
    public var aclHandle: UInt16? { aclHeaderField.map { $0 & 0x0FFF } }

    /// The Packet_Boundary_Flag (2 bits) of an ACL packet, or `nil` for other packets.
    public var aclPacketBoundary: UInt8? { aclHeaderField.map { UInt8(($0 >> 12) & 0b11) } }

    /// The Broadcast_Flag (2 bits) of an ACL packet, or `nil` for other packets.
    public var aclBroadcast: UInt8? { aclHeaderField.map { UInt8($0 >> 14) } }

    /// The 16-bit Data_Total_Length of an ACL packet, or `nil` for other packets.
    public var aclDataLength: UInt16? {
        guard indicator == .aclData, let n = declaredPayloadLength else { return nil }
        return UInt16(n)
    }
}
