/// The controller's source of fresh random values (its CS_IV/CS_IN/CS_PV halves): xorshift64*
/// over a seed. A board seeds it from its hardware RNG; the emulator seeds it from the run's
/// seed so that a run repeats exactly.
public struct ControllerRandom: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    public mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
