/// What channel selection algorithm #3c carries from one channel-map repetition to the next
/// within a procedure (Core 6.0 Vol 6 Part H §4.1.4.x). Reconstructed from NimBLE's unmerged
/// #3c controller code because the spec text was not available [U].
///
/// NimBLE builds one #3c sequence per channel-map repetition. The first call draws a start
/// jitter; every call shifts the sweep by one more channel (modulo the jump). Start each
/// procedure with a fresh value and pass the same value to every call of that procedure.
public struct ChannelSelection3cState: Sendable, Equatable {
    /// How many sequences this procedure has generated so far (NimBLE's `csa3c_iter`). It
    /// wraps like NimBLE's 8-bit counter.
    public var iteration: UInt8
    /// hr1(jump), drawn by the first call (iteration 0).
    public var startJitter: UInt8

    public init(iteration: UInt8 = 0, startJitter: UInt8 = 0) {
        self.iteration = iteration
        self.startJitter = startJitter
    }
}
