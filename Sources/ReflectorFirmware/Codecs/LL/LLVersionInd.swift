import WireFormat

/// LL_VERSION_IND (opcode 0x0C, 5 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.13): the
/// version exchange behind Read Remote Version Information. Each side sends its own once per
/// connection; the phone learns from it that an accessory is Bluetooth 6.3.
///
/// Layout: `VersNr 1 | CompId 2 | SubVersNr 2`, little-endian.
public struct LLVersionInd: Sendable, Equatable, FieldWalk {
    public static let opcode: UInt8 = 0x0C
    public static let bodyLength = 5

    public var version: UInt8
    public var companyIdentifier: UInt16
    public var subversion: UInt16

    public init(version: UInt8, companyIdentifier: UInt16, subversion: UInt16) {
        (self.version, self.companyIdentifier, self.subversion) = (version, companyIdentifier, subversion)
    }

    public static var blank: Self { Self(version: 0, companyIdentifier: 0, subversion: 0) }

    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.u8(&version, "VersNr"); try c.u16(&companyIdentifier, "CompId"); try c.u16(&subversion, "SubVersNr")
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 6)
        w.u8(Self.opcode)
        writeFields(into: &w)
        return w.bytes
    }

    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> LLVersionInd {
        var r = ByteReader(bytes)
        let op = try r.u8("Opcode")
        guard op == opcode else { throw .unexpectedCode(expected: Int(opcode), found: Int(op)) }
        let v = try readFields(&r)
        try r.expectEnd()
        return v
    }
}
