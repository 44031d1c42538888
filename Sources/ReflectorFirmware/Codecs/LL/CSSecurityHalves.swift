import WireFormat

/// One side's half of the CS security material (Core 6.0 Vol 6 Part B §5.1.23, the Channel
/// Sounding Security Start procedure): 64 bits of CS_IV, 32 of CS_IN and 64 of CS_PV. The
/// central sends its halves in LL_CS_SEC_REQ, the peripheral its own in LL_CS_SEC_RSP, with the
/// same 20-octet layout:
///
/// ```
///  0-7 CS_IV half   8-11 CS_IN half   12-19 CS_PV half      (each little-endian)
/// ```
///
/// The central's halves are the least significant ones, the peripheral's the most significant
/// (`CSSecurityMaterial` combines them).
public struct CSSecurityHalves: Sendable, Equatable {
    /// CS_IV_C or CS_IV_P: 64 bits of the initialization vector.
    public var iv: UInt64
    /// CS_IN_C or CS_IN_P: 32 bits of the instantiation nonce.
    public var instantiationNonce: UInt32
    /// CS_PV_C or CS_PV_P: 64 bits of the personalization vector.
    public var personalization: UInt64

    public init(iv: UInt64, instantiationNonce: UInt32, personalization: UInt64) {
        (self.iv, self.instantiationNonce, self.personalization) = (iv, instantiationNonce, personalization)
    }

    /// Fresh halves from a source of random values (the controller's RNG).
    init(random: inout ControllerRandom) {
        self.init(iv: random.next(), instantiationNonce: UInt32(truncatingIfNeeded: random.next()), personalization: random.next())
    }

    /// Octets of the encoded halves.
    public static let encodedLength = 20

    func encode(into w: inout ByteWriter) {
        w.u64(iv)
        w.u32(instantiationNonce)
        w.u64(personalization)
    }

    static func decode(from r: inout ByteReader) throws(DecodeError) -> CSSecurityHalves {
        let iv = try r.u64("CS_IV")
        let nonce = try r.u32("CS_IN")
        return CSSecurityHalves(iv: iv, instantiationNonce: nonce, personalization: try r.u64("CS_PV"))
    }
}
