import WireFormat

/// One SMP (mcumgr) packet: the 8-octet big-endian header and its CBOR payload.
///
/// Header layout (Zephyr `doc/services/device_mgmt/smp_protocol.rst`; MCUboot
/// `boot_serial_priv.h` struct nmgr_hdr): octet 0 = reserved(3) | version(2) | op(3);
/// octet 1 flags; octets 2–3 payload length; 4–5 group; 6 sequence; 7 command ID.
public struct SMPPacket: Equatable, Sendable {
    public static let headerSize = 8

    /// The op bits; raw, because a packet read off the wire may carry any value.
    public var op: UInt8
    /// SMP version bits: 0 = v1, 1 = v2. MCUboot ignores them and echoes them back.
    public var version: UInt8
    public var flags: UInt8
    public var group: UInt16
    public var sequence: UInt8
    public var id: UInt8
    /// The CBOR-encoded payload.
    public var payload: [UInt8]

    public init(op: SMPOperation, version: UInt8 = 0, flags: UInt8 = 0, command: SMPCommand, sequence: UInt8, payload: [UInt8]) {
        self.op = op.rawValue
        self.version = version & 0x03
        self.flags = flags
        self.group = command.group
        self.sequence = sequence
        self.id = command.id
        self.payload = payload
    }

    public init(op: SMPOperation, version: UInt8 = 0, command: SMPCommand, sequence: UInt8, body: CBORValue) {
        self.init(op: op, version: version, command: command, sequence: sequence, payload: CBOREncoder.encode(body))
    }

    /// Parses header and payload; the header's length must match the payload exactly.
    public init(decoding bytes: [UInt8]) throws(SMPError) {
        guard bytes.count >= Self.headerSize else { throw .shortHeader(count: bytes.count) }
        var r = ByteReader(bytes)
        let header: (opVersion: UInt8, flags: UInt8, length: UInt16, group: UInt16, sequence: UInt8, id: UInt8)
        do throws(DecodeError) {
            header = (try r.u8("Op"), try r.u8("Flags"), try r.u16("Length", endianness: .big), try r.u16("Group", endianness: .big),
                      try r.u8("Sequence"), try r.u8("Command_ID"))
        } catch {
            throw .shortHeader(count: bytes.count)  // not reached: the length is checked
        }
        let length = Int(header.length)
        guard length == r.remaining else { throw .lengthMismatch(header: length, actual: r.remaining) }
        op = header.opVersion & 0x07
        version = (header.opVersion >> 3) & 0x03
        flags = header.flags
        group = header.group
        sequence = header.sequence
        id = header.id
        payload = Array(r.unread)
    }

    public var operation: SMPOperation? { SMPOperation(rawValue: op) }
    public var command: SMPCommand { SMPCommand(group: group, id: id) }

    /// The payload as CBOR.
    public func body() throws(CBORError) -> CBORValue { try CBORDecoder.decode(payload) }

    /// Header followed by payload.
    public func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: Self.headerSize + payload.count)
        w.u8(version << 3 | (op & 0x07))
        w.u8(flags)
        w.u16(UInt16(truncatingIfNeeded: payload.count), endianness: .big)
        w.u16(group, endianness: .big)
        w.u8(sequence)
        w.u8(id)
        w.octets(payload)
        return w.bytes
    }
}
