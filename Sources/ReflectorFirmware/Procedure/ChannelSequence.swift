/// A channel sequence of fixed capacity: the channels that non-mode-0 steps use in order, as
/// channel selection algorithm #3c produces them (Core 6.0 Vol 6 Part H §4.1.4.x). Channels are
/// CS channel indices (RF 2402 + k MHz). Unlike a #3b shuffle, a #3c sequence can hold a channel
/// more than once.
///
/// The storage is inline (no heap): `capacity` is NimBLE's bound for a #3c sequence
/// (`BLE_LL_CS_CSA3C_CHAN_COUNT_MAX`, 256 = 158 + 9 + 79 + 4 rounded up) [U]. A #3c sequence for
/// the full channel map is about 120 channels long; its hard upper bound is well below 256
/// (see `ChannelSelection3c`).
public struct ChannelSequence: Sendable, RandomAccessCollection {
    public static let capacity = 256

    /// The channels; only the first `count` entries are meaningful.
    public internal(set) var channels = InlineArray<256, UInt8>(repeating: 0)
    public internal(set) var count = 0

    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    @inline(__always)
    public subscript(i: Int) -> UInt8 {
        precondition(i >= 0 && i < count, "ChannelSequence index out of range")
        return channels[i]
    }

    /// Appends a channel; the caller's construction guarantees there is room.
    @inline(__always)
    mutating func append(_ channel: UInt8) {
        precondition(count < ChannelSequence.capacity, "ChannelSequence capacity exceeded")
        channels[count] = channel
        count += 1
    }
}

extension ChannelSequence: Equatable {
    public static func == (a: ChannelSequence, b: ChannelSequence) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a.channels[i] != b.channels[i] { return false }
        return true
    }
}
