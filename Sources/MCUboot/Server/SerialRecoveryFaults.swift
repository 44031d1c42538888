/// Faults a simulated bootloader injects into its answers, to exercise a client's recovery.
/// Answers are counted from 1 over the server's lifetime.
public struct SerialRecoveryFaults: Equatable, Sendable {
    /// Drop the first `dropFirst` answers (a board still erasing, a line noise burst).
    public var dropFirst = 0
    /// Drop every `dropEvery`-th answer (0: never).
    public var dropEvery = 0
    /// Answers to damage in transit: one base64 character is changed, so the CRC fails.
    public var garble: Set<Int> = []

    public init(dropFirst: Int = 0, dropEvery: Int = 0, garble: Set<Int> = []) {
        self.dropFirst = dropFirst
        self.dropEvery = dropEvery
        self.garble = garble
    }

    /// What happens to answer number `n`.
    func fate(of n: Int) -> Fate {
        if n <= dropFirst || (dropEvery > 0 && n % dropEvery == 0) { return .drop }
        return garble.contains(n) ? .garble : .deliver
    }

    enum Fate { case deliver, drop, garble }
}
