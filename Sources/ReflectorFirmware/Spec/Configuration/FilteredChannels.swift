/// The filtered channel array of a procedure (Core 6.0 Vol 6 Part H §4.1.x): the channels of the
/// configuration's map that the host's channel classification also allows and that CS may use,
/// in ascending order. Channel selection shuffles this array.
public struct FilteredChannels: Sendable {
    /// The channel indices, ascending; only the first `count` entries are meaningful.
    public private(set) var channels = InlineArray<72, UInt8>(repeating: 0)
    public private(set) var count = 0

    /// The minimum number of channels a procedure needs (fewer aborts it with reason 0x2,
    /// and Procedure Enable answers Insufficient Channels, 0x48).
    public static let minimumCount = 15

    public init(map: ChannelMap, classification: ChannelMap = .allowed) {
        let usable = map & classification & ChannelMap.allowed
        for ch in 2...76 where usable.contains(ch) {
            channels[count] = UInt8(ch)
            count += 1
        }
    }

    public subscript(i: Int) -> UInt8 { channels[i] }

    /// The channels as an array (for tests and tools; the planner reads `channels` directly).
    public var array: [UInt8] { (0..<count).map { channels[$0] } }

    public var isSufficient: Bool { count >= FilteredChannels.minimumCount }
}
