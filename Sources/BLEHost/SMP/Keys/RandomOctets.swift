import CCrypto

/// Where a pairing's randomness comes from (nonces, passkeys, a legacy LTK with its EDIV and
/// Rand, an IRK): a source that fills a buffer of the size asked, so every draw has its full
/// length and no caller pads. Injected, so a pairing replays exactly under a seeded source.
public struct RandomOctets: Sendable {
    private let fill: @Sendable (inout [UInt8]) -> Void

    /// A source that overwrites every octet of the buffer it is given (and keeps its size).
    public init(_ fill: @escaping @Sendable (inout [UInt8]) -> Void) { self.fill = fill }

    /// `count` octets.
    public func octets(_ count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max(0, count))
        fill(&buffer)
        precondition(buffer.count == max(0, count), "a RandomOctets source changed the buffer's size")
        return buffer
    }

    /// A 128-bit value: a nonce (Na, Nb, Mrand, Srand), an LTK, an IRK.
    public func key128() -> Key128 { Key128(octets: octets(16)) }

    public func uint16() -> UInt16 { UInt16(truncatingIfNeeded: integer(2)) }
    public func uint64() -> UInt64 { integer(8) }

    /// A uniformly drawn six-digit passkey, 000000–999999 (Core 6.0 Vol 3 Part H §2.3.5.3 asks
    /// for a random one): 32 random bits, rejection-sampled.
    public func passkey() -> UInt32 {
        while true {
            let v = UInt32(truncatingIfNeeded: integer(4))
            // 4_294_000_000 is the largest multiple of 10^6 below 2^32.
            if v < 4_294_000_000 { return v % 1_000_000 }
        }
    }

    /// `count` (≤ 8) octets as an integer, the first the least significant.
    private func integer(_ count: Int) -> UInt64 {
        octets(count).enumerated().reduce(0) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) }
    }

    /// libcrypto's CSPRNG (RAND_bytes). It fails only without an entropy source; pairing on
    /// predictable octets would be worse than stopping, so that failure traps.
    public static let system = RandomOctets { buffer in
        let count = buffer.count
        let status = buffer.withUnsafeMutableBufferPointer { ccrypto_random($0.baseAddress, count) }
        precondition(status == 0, "RAND_bytes failed: no entropy for SMP")
    }

    /// Every octet `value`: for fuzzing and fixed tests, never for a real pairing.
    public static func repeating(_ value: UInt8) -> RandomOctets {
        RandomOctets { buffer in
            for i in buffer.indices { buffer[i] = value }
        }
    }
}
