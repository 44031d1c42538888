#if !FIRMWARE_IMAGE
import ReflectorFirmware
#endif

/// The CS security material both controllers instantiate the DRBG from (h9, Core 6.0 Vol 6
/// Part E §3.1.5): CS_IV (128 bits), CS_IN (64 bits) and CS_PV (128 bits), each most significant
/// octet first as the spec's sample data writes them: the Security payload's 40 octets.
public struct SecurityMaterial: Sendable, Equatable {
    public var iv: Block128
    public var instantiationNonce: UInt64
    public var personalization: Block128

    public static let encodedLength = 40

    public init(iv: Block128, instantiationNonce: UInt64, personalization: Block128) {
        self.iv = iv
        self.instantiationNonce = instantiationNonce
        self.personalization = personalization
    }

    public init(payload: [UInt8]) throws(PayloadError) {
        guard payload.count == Self.encodedLength else { throw PayloadError(offset: payload.count) }
        iv = Block128(octets: payload[0..<16])
        var n: UInt64 = 0
        for b in payload[16..<24] { n = n << 8 | UInt64(b) }
        instantiationNonce = n
        personalization = Block128(octets: payload[24..<40])
    }

    public var payload: [UInt8] {
        var out = iv.octets
        for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: instantiationNonce >> UInt64(56 - 8 * i))) }
        out.append(contentsOf: personalization.octets)
        return out
    }
}
