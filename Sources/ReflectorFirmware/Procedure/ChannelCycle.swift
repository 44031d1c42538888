/// One pass of channels that steps consume in order (Core 6.0 Vol 6 Part H §4.1.4): the mode-0
/// shuffle (cr1 with transaction ID 1), the #3b shuffle (cr1 with ID 0), or a #3c sequence. It is
/// refilled lazily, at the first step that needs a channel once it is empty, so the shuffle draws
/// with that step's counter (TI and Telink do the same; the spec's sample #3b shuffle at step 3
/// with three mode-0 steps agrees).
public struct ChannelCycle: Sendable {
    private var sequence = ChannelSequence()
    public private(set) var position = 0
    /// How many passes have been started in this procedure.
    public private(set) var passes = 0

    public init() {}

    public var isExhausted: Bool { position >= sequence.count }

    /// Starts a pass with the filtered channels shuffled by cr1 under `id`.
    @inline(__always)
    public mutating func shuffle<C: BlockCipher>(_ filtered: FilteredChannels, _ id: TransactionID, _ bits: inout CSRandomBits<C>) {
        sequence.count = filtered.count
        for i in 0..<filtered.count { sequence.channels[i] = filtered[i] }
        bits.cr1(&sequence.channels, count: filtered.count, id)
        position = 0
        passes += 1
    }

    /// Starts a pass with a #3c sequence.
    public mutating func load(_ next: ChannelSequence) {
        sequence = next
        position = 0
        passes += 1
    }

    /// The next channel of the pass. Call only when not exhausted.
    @inline(__always)
    public mutating func next() -> UInt8 {
        defer { position += 1 }
        return sequence.channels.span[position]  // a span: no copy of the 72 channels
    }

    public mutating func reset() {
        sequence.count = 0
        position = 0
        passes = 0
    }
}
