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
        let length = Int(bytes[2]) << 8 | Int(bytes[3])
        guard length == bytes.count - Self.headerSize else { throw .lengthMismatch(header: length, actual: bytes.count - Self.headerSize) }
        op = bytes[0] & 0x07
        version = (bytes[0] >> 3) & 0x03
        flags = bytes[1]
        group = UInt16(bytes[4]) << 8 | UInt16(bytes[5])
        sequence = bytes[6]
        id = bytes[7]
        payload = Array(bytes[Self.headerSize...])
    }

    public var operation: SMPOperation? { SMPOperation(rawValue: op) }
    public var command: SMPCommand { SMPCommand(group: group, id: id) }

    /// The payload as CBOR.
    public func body() throws(CBORError) -> CBORValue { try CBORDecoder.decode(payload) }

    /// Header followed by payload.
    public func encoded() -> [UInt8] {
        let n = payload.count
        return [version << 3 | (op & 0x07), flags, UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF),
                UInt8(group >> 8), UInt8(group & 0xFF), sequence, id] + payload
    }
}
