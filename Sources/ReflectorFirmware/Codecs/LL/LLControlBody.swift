import WireFormat

/// The CtrData of one LL Control PDU type, with its opcode (Core 6.0 Vol 6 Part B §2.4.2). A
/// conforming type writes and reads only its own fields (`encodeBody(into:)`, `decodeBody(_:)`);
/// this protocol gives every one of them the whole payload `Opcode | CtrData` both ways, with the
/// checks all PDUs share: the opcode, then the exact CtrData length (`LLControlPDU.checkLength`),
/// then the fields, then no octet left over.
///
/// The defaults are generic, not existential: each PDU type gets its own specialised copy, so
/// they cost what the hand-written pairs did, under Embedded Swift too.
public protocol LLControlBody: Sendable, Equatable {
    static var opcode: LLControlOpcode { get }
    /// Appends the CtrData (everything after the opcode octet).
    func encodeBody(into w: inout ByteWriter)
    /// Reads the CtrData; the caller has checked that `r` holds exactly `opcode`'s length.
    static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> Self
}

extension LLControlBody {
    /// `Opcode | CtrData`: what follows the 2-octet LL data header (LLID 0b11, Length = the
    /// returned count).
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 1 + Self.opcode.bodyLength)
        w.u8(Self.opcode.rawValue)
        encodeBody(into: &w)
        return w.bytes
    }

    /// Decodes `Opcode | CtrData` of this PDU type. Another opcode is `.unexpectedCode` naming
    /// the opcode found; a wrong CtrData length is `.truncated` or `.trailingBytes`.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> Self {
        var r = ByteReader(bytes)
        let raw = try r.u8("Opcode")
        guard raw == opcode.rawValue else { throw .unexpectedCode(expected: Int(opcode.rawValue), found: Int(raw)) }
        try LLControlPDU.checkLength(opcode, remaining: r.remaining)
        let body = try decodeBody(&r)
        try r.expectEnd()
        return body
    }
}
