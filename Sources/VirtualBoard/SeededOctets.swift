import EmulatorMath
import Synchronization

/// Seeded octets for an emulated host's nonces and keys (a simulation's, reproducible from its
/// seed): a `SplitMix64` behind a lock, so a `@Sendable` closure can draw from it.
final class SeededOctets: Sendable {
    private let rng: Mutex<SplitMix64>

    init(seed: UInt64) { rng = Mutex(SplitMix64(seed: seed)) }

    func next(_ count: Int) -> [UInt8] {
        rng.withLock { r in (0..<max(0, count)).map { _ in UInt8(truncatingIfNeeded: r.next()) } }
    }
}
