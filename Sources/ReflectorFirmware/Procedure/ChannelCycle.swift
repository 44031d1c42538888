/// One pass of shuffled channels that steps consume in order (Core 6.0 Vol 6 Part H §4.1.4):
/// the mode-0 shuffle (cr1 with transaction ID 1), the #3b shuffle (cr1 with ID 0), or a #3c
/// sequence. It is refilled lazily, at the first step that needs a channel once it is empty,
/// so the shuffle draws with that step's counter (TI and Telink do the same; NimBLE's sample
/// data for the #3b shuffle at step 3 with three mode-0 steps agrees).
public struct ChannelCycle: Sendable {
    /// Capacity of one pass: the longest #3c sequence fits.
    public static let capacity = 160
    private var channels = InlineArray<160, UInt8>(repeating: 0)
    public private(set) var count = 0
    public private(set) var position = 0
    /// How many passes have been started.
    public private(set) var passes = 0

    public init() {}

    public var isExhausted: Bool { position >= count }

    /// Starts a pass with `filtered` shuffled by cr1 under `id`.
    @inline(__always)
    public mutating func shuffle(_ filtered: FilteredChannels, _ id: TransactionID, _ bits: inout CSRandomBits) {
        for i in 0..<filtered.count { channels[i] = filtered[i] }
        count = filtered.count
        bits.cr1(&channels, count: count, id)
        position = 0
        passes += 1
    }

    /// Starts a pass with an explicit sequence (used by #3c).
    public mutating func load(_ sequence: some Sequence<UInt8>) {
        count = 0
        for ch in sequence where count < ChannelCycle.capacity {
            channels[count] = ch
            count += 1
        }
        position = 0
        passes += 1
    }

    /// The next channel of the pass. Call only when not exhausted.
    @inline(__always)
    public mutating func next() -> UInt8 {
        defer { position += 1 }
        return channels[position]
    }

    public mutating func reset() {
        count = 0
        position = 0
        passes = 0
    }
}
