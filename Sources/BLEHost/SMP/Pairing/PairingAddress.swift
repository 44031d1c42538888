/// A device address as pairing uses it: the 48-bit address and whether it is a random one
/// (c1 takes the type as iat/rat, f5 and f6 as the octet before the address, §2.2.3, §2.2.7).
public struct PairingAddress: Sendable, Equatable, Hashable {
    public var address: UInt64
    public var isRandom: Bool

    public init(_ address: UInt64, random: Bool) {
        self.address = address & 0xFFFF_FFFF_FFFF
        isRandom = random
    }

    /// The six octets, most significant first, as the spec and a bond file write an address.
    public var octets: [UInt8] { Self.octets(address) }

    /// Any 48-bit address's six octets, most significant first.
    public static func octets(_ address: UInt64) -> [UInt8] {
        (0..<6).reversed().map { UInt8(truncatingIfNeeded: address >> UInt64(8 * $0)) }
    }

    /// The type octet (0 public, 1 random), then the address: A1 and A2 of f5 and f6.
    var typedOctets: [UInt8] { [isRandom ? 1 : 0] + octets }
}
