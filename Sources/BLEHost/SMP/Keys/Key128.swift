import ReflectorFirmware

/// A 128-bit key, nonce, confirm or check value of SMP: the firmware's `Block128`, MSB-first,
/// the order in which Core 6.0 Vol 3 Part H §2.2 defines the toolbox and Appendix D prints it.
/// SMP PDUs and HCI carry these values least significant octet first: `init(wire:)` and `wire`
/// are the one place where that order is turned, at the `SMPPDU` boundary (and at HCI's,
/// for the LTK).
public typealias Key128 = Block128

extension Block128 {
    /// From octets in the order SMP and HCI carry them (least significant first); fewer than 16
    /// are the low octets of a smaller value, more are cut.
    public init(wire: some Sequence<UInt8>) {
        var high: UInt64 = 0, low: UInt64 = 0
        for (i, b) in wire.prefix(16).enumerated() {
            if i < 8 { low |= UInt64(b) << UInt64(8 * i) } else { high |= UInt64(b) << UInt64(8 * (i - 8)) }
        }
        self.init(high: high, low: low)
    }

    /// The 16 octets in the order SMP and HCI carry them (least significant first).
    public var wire: [UInt8] { (0..<16).map { octet(15 - $0) } }

    /// A 128-bit value below 2^64 (a passkey as TK, or as f6's r: §2.3.5.3, §2.2.8).
    init(_ value: UInt64) { self.init(high: 0, low: value) }
}

/// A 256-bit value, MSB-first: a P-256 coordinate, a private scalar, or the DHKey
/// (Core 6.0 Vol 3 Part H §2.3.5.6.1), as f4, f5 and g2 take them.
public struct Key256: Sendable, Hashable {
    /// Octets 0–15 (most significant) and 16–31.
    public var high: Key128
    public var low: Key128

    public init(high: Key128, low: Key128) {
        self.high = high
        self.low = low
    }

    public static let zero = Key256(high: .zero, low: .zero)

    /// From 32 octets, most significant first (fewer are zero-padded on the right).
    public init(octets: some Collection<UInt8>) {
        high = Key128(octets: octets.prefix(16))
        low = Key128(octets: octets.dropFirst(16).prefix(16))
    }

    /// From octets in the order SMP carries them (least significant first).
    public init(wire: some Collection<UInt8>) {
        low = Key128(wire: wire.prefix(16))
        high = Key128(wire: wire.dropFirst(16).prefix(16))
    }

    /// The 32 octets, most significant first.
    public var octets: [UInt8] { high.octets + low.octets }
    /// The 32 octets least significant first.
    public var wire: [UInt8] { low.wire + high.wire }
}
