/// The two pools of "salt" channels that channel selection algorithm #3c mixes into its hat or
/// X sweep (Core 6.0 Vol 6 Part H §4.1.4.x). Reconstructed from NimBLE's unmerged #3c
/// controller code because the spec text was not available [U].
///
/// Channels 0...78 are split into two regions that depend on the shape:
/// - X shape: the primary region is the centre, 20...59; the secondary region is both edges,
///   0...19 and 60...78.
/// - Hat shape: the primary region is the top half, 40...78; the secondary region is 0...39.
///
/// Each pool lists its region's channels that the sweep does not visit, shuffled, followed by
/// all of its region's channels, shuffled again. Pools are consumed front to back; an
/// exhausted pool yields nothing.
struct Ch3cSaltPools {
    /// A region has at most 40 channels, so a pool (unvisited + all) has at most 80.
    static let poolCapacity = 80

    private var primary = InlineArray<80, UInt8>(repeating: 0)
    private var secondary = InlineArray<80, UInt8>(repeating: 0)
    private var primaryCount = 0
    private var secondaryCount = 0
    /// How many channels each pool has handed out.
    private(set) var primaryTaken = 0
    private(set) var secondaryTaken = 0

    /// Whether `channel` lies in the primary region of `shape`.
    @inline(__always)
    static func isPrimary(_ channel: Int, _ shape: Ch3cShape) -> Bool {
        switch shape {
        case .x: return channel >= 20 && channel <= 59
        case .hat: return channel >= 40 && channel <= 78
        }
    }

    /// Builds both pools for a sweep that visits the channels in `visited`.
    ///
    /// Draws four cr1 shuffles from `bits` (TID 0, current step), in this order: the primary
    /// region's unvisited channels, all primary channels, the secondary region's unvisited
    /// channels, all secondary channels. Each list is ascending before its shuffle.
    init<C: BlockCipher>(shape: Ch3cShape, visited: ChannelMap, bits: inout CSRandomBits<C>) {
        Ch3cSaltPools.fill(&primary, &primaryCount, primary: true, shape, skipping: visited, &bits)
        Ch3cSaltPools.fill(&primary, &primaryCount, primary: true, shape, skipping: .none, &bits)
        Ch3cSaltPools.fill(&secondary, &secondaryCount, primary: false, shape, skipping: visited, &bits)
        Ch3cSaltPools.fill(&secondary, &secondaryCount, primary: false, shape, skipping: .none, &bits)
    }

    /// Appends one shuffled list (the region's channels 0...78 not in `skipping`) to a pool.
    private static func fill<C: BlockCipher>(_ pool: inout InlineArray<80, UInt8>, _ count: inout Int, primary: Bool,
                                             _ shape: Ch3cShape, skipping: ChannelMap, _ bits: inout CSRandomBits<C>) {
        var list = InlineArray<40, UInt8>(repeating: 0)
        var n = 0
        for ch in 0...78 where isPrimary(ch, shape) == primary && !skipping.contains(ch) {
            list[n] = UInt8(ch)
            n += 1
        }
        bits.cr1(&list, count: n, .channelSelection)
        for i in 0..<n {
            pool[count] = list[i]
            count += 1
        }
    }

    /// The next primary-pool channel, or nil when the pool is exhausted.
    @inline(__always)
    mutating func takePrimary() -> UInt8? {
        guard primaryTaken < primaryCount else { return nil }
        defer { primaryTaken += 1 }
        return primary[primaryTaken]
    }

    /// The next secondary-pool channel, or nil when the pool is exhausted.
    @inline(__always)
    mutating func takeSecondary() -> UInt8? {
        guard secondaryTaken < secondaryCount else { return nil }
        defer { secondaryTaken += 1 }
        return secondary[secondaryTaken]
    }

    /// The salt to put before a sweep channel: taken from the pool of the region the sweep is
    /// *not* in at that moment.
    @inline(__always)
    mutating func salt(before channel: UInt8, _ shape: Ch3cShape) -> UInt8? {
        Ch3cSaltPools.isPrimary(Int(channel), shape) ? takeSecondary() : takePrimary()
    }

    /// The `n` channels of a leading or trailing salt run: alternately primary then secondary.
    /// On a primary turn an exhausted primary pool falls back to the secondary pool; on a
    /// secondary turn an exhausted secondary pool yields nothing. Channels not in `allowed`
    /// are consumed but dropped.
    mutating func alternate(_ n: Int, into out: inout ChannelSequence, allowed: ChannelMap) {
        var primaryTurn = true
        for _ in 0..<n {
            if primaryTurn, let ch = takePrimary() {
                Ch3cSaltPools.put(ch, &out, allowed)
            } else if let ch = takeSecondary() {
                Ch3cSaltPools.put(ch, &out, allowed)
            }
            primaryTurn.toggle()
        }
    }

    /// Evens out the pools: whichever pool has handed out fewer channels hands out the
    /// difference (as far as it can).
    mutating func balance(into out: inout ChannelSequence, allowed: ChannelMap) {
        while secondaryTaken < primaryTaken, let ch = takeSecondary() { Ch3cSaltPools.put(ch, &out, allowed) }
        while primaryTaken < secondaryTaken, let ch = takePrimary() { Ch3cSaltPools.put(ch, &out, allowed) }
    }

    /// Appends `ch` when the channel map allows it.
    @inline(__always)
    static func put(_ ch: UInt8, _ out: inout ChannelSequence, _ allowed: ChannelMap) {
        if allowed.contains(Int(ch)) { out.append(ch) }
    }
}
