/// The waiting interval after failed pairings (Core 6.0 Vol 3 Part H §2.3.6, Repeated
/// Attempts): after a failure, a new pairing from the same peer is refused (Pairing Failed,
/// Repeated Attempts) until the interval has passed; each failure doubles it (from 2 s, up to
/// 64 s, this implementation's choice: the text asks for an exponentially growing interval,
/// not its figures), and a success resets it.
public struct PairingBackoff: Sendable, Equatable {
    public static let first = 2.0, longest = 64.0
    private var entries: [PairingAddress: (until: Double, interval: Double)] = [:]

    public init() {}

    public static func == (a: PairingBackoff, b: PairingBackoff) -> Bool {
        a.entries.keys == b.entries.keys && a.entries.allSatisfy { k, v in b.entries[k].map { $0 == v } ?? false }
    }

    /// Whether `peer` may try pairing at `now`.
    public func allows(_ peer: PairingAddress, now: Double) -> Bool { now >= (entries[peer]?.until ?? -.infinity) }

    public mutating func failed(_ peer: PairingAddress, now: Double) {
        let interval = entries[peer].map { min(Self.longest, $0.interval * 2) } ?? Self.first
        entries[peer] = (now + interval, interval)
    }

    public mutating func succeeded(_ peer: PairingAddress) { entries[peer] = nil }
}
