/// Channel selection algorithm #3c, Core 6.0 Vol 6 Part H §4.1.4.x (channel selection
/// algorithm #3c): the channel sequence of non-mode-0 steps when a configuration selects
/// `Channel_Selection_Type` = 1, as a hat or X sweep across the band with a jump of 2...8
/// channels, "salted" with extra channels and shuffled in blocks.
///
/// The spec text was not available; the procedure is reconstructed from NimBLE's unmerged
/// controller (apache/mynewt-nimble PR #1765, `ble_ll_cs_csa3c.c`) and reproduces that PR's
/// unit-test vectors [U]. Those vectors are implementation-derived, not spec sample data.
///
/// One call builds one sequence (one channel-map repetition):
/// 1. Sweep. Per jump J NimBLE's table gives two start channels (J 2: 1, 76; 3: 77, 0; 4 and 5:
///    78, 0; 6: 76, 1; 7: 74, 1; 8: 76, 0). Both starts move up by
///    (iteration + jitter) mod J. X: the two runs interleave, one stepping by +J, the other by
///    −J (the run from the lower start climbs), each keeping channels 0...77. Hat: one run
///    climbs from the lower start to 78, then one falls from the higher start to 0.
/// 2. Salt pools (`Ch3cSaltPools`): four cr1 shuffles.
/// 3. Salting. On the first call only, hr1(10) channels alternating primary/secondary pool.
///    Before every second sweep channel (indices 0, 2, 4, ...) one channel from the pool of the
///    other region. On the last repetition only, hr1(5) alternating channels and then a
///    balancing run so both pools have handed out equally many.
/// 4. Filtering: channels outside the filtered channel map are dropped (this includes 0, 1,
///    23...25, 77 and 78).
/// 5. Block shuffle: with L channels left, blocks of B = max(L / 4, 10) channels
///    (max(L / B, 1) blocks; the last block takes the remainder) are each shuffled with cr1.
///
/// Random bits, all transaction ID 0 (`channelSelection`) at the step `bits` is set to, in
/// order: hr1(J) jitter (first call only); the four pool shuffles; hr1(10) (first call only);
/// hr1(5) (last repetition only); one cr1 per block.
///
/// NimBLE's table also has a "maxRepsAllowed" column (1, 1, 2, 2, 3, 3, 3) that its code never
/// reads; it is not modelled here.
///
/// Allocation-free. The longest possible sequence is below 220 channels (sweep ≤ 80,
/// in-sweep salt ≤ 40, leading ≤ 9, trailing ≤ 4, balancing ≤ 80), inside
/// `ChannelSequence.capacity` (256, NimBLE's bound). A block has at most L / 4 + 3 ≤ 67
/// channels. Stack use is about 1 KiB.
public struct ChannelSelection3c: Sendable {
    /// The highest channel a sweep can name (NimBLE's `MAX_CHANNEL_ID`).
    static let highestChannel = 78
    /// Salt goes in before every `saltRate`-th sweep channel (2 for every jump).
    static let saltRate = 2
    /// The leading salt run has hr1(maxLeadingSalt + 1) channels.
    static let maxLeadingSalt = 9
    /// The trailing salt run has hr1(maxTrailingSalt + 1) channels.
    static let maxTrailingSalt = 4

    /// The sweep start channels for a jump of 2...8.
    @inline(__always)
    static func startChannels(jump: Int) -> (first: Int, second: Int) {
        switch jump {
        case 2: return (1, 76)
        case 3: return (77, 0)
        case 4, 5: return (78, 0)
        case 6: return (76, 1)
        case 7: return (74, 1)
        default: return (76, 0)
        }
    }

    /// Generates the #3c sequence of a procedure with a single channel-map repetition (or the
    /// first of several when the caller does not need the later ones): a fresh state, drawing
    /// from `bits` at its current step with transaction ID 0.
    public static func generate<C: BlockCipher>(shape: Ch3cShape, jump: UInt8, channels: FilteredChannels,
                                                bits: inout CSRandomBits<C>) -> ChannelSequence {
        var state = ChannelSelection3cState()
        return generate(shape: shape, jump: jump, channels: channels, repetitions: 1, state: &state, bits: &bits)
    }

    /// Generates the #3c sequence for the next channel-map repetition of a procedure.
    ///
    /// Call once per repetition with the same `state` (fresh for each procedure) and the
    /// configuration's `Channel_Map_Repetition` as `repetitions`; `state.iteration` advances by
    /// one. Only the first call adds the leading salt and only call number `repetitions` adds
    /// the trailing salt, as NimBLE does.
    ///
    /// - Precondition: `jump` is 2...8 and `repetitions` ≥ 1 (Create Config rejects others).
    public static func generate<C: BlockCipher>(shape: Ch3cShape, jump: UInt8, channels: FilteredChannels,
                                                repetitions: UInt8, state: inout ChannelSelection3cState,
                                                bits: inout CSRandomBits<C>) -> ChannelSequence {
        precondition(jump >= 2 && jump <= 8, "Ch3c_Jump must be 2...8")
        precondition(repetitions >= 1, "Channel_Map_Repetition must be at least 1")
        let id = TransactionID.channelSelection
        let j = Int(jump)
        let isFirst = state.iteration == 0
        let isLast = Int(state.iteration) == Int(repetitions) - 1
        defer { state.iteration &+= 1 }

        var allowed = ChannelMap.none
        for i in 0..<channels.count { allowed.insert(Int(channels[i])) }

        // 1. The sweep.
        if isFirst { state.startJitter = UInt8(bits.hr1(j, id)) }
        let shift = (Int(state.iteration) + Int(state.startJitter)) % j
        let starts = startChannels(jump: j)
        let sweep = makeSweep(shape: shape, jump: j, from: starts.first + shift, starts.second + shift)
        var visited = ChannelMap.none
        for ch in sweep { visited.insert(Int(ch)) }

        // 2. Salt pools.
        var pools = Ch3cSaltPools(shape: shape, visited: visited, bits: &bits)

        // 3 and 4. Salting, keeping only allowed channels.
        var out = ChannelSequence()
        if isFirst {
            pools.alternate(bits.hr1(maxLeadingSalt + 1, id), into: &out, allowed: allowed)
        }
        for i in 0..<sweep.count {
            let ch = sweep[i]
            if i % saltRate == 0, let salt = pools.salt(before: ch, shape) {
                Ch3cSaltPools.put(salt, &out, allowed)
            }
            Ch3cSaltPools.put(ch, &out, allowed)
        }
        if isLast {
            pools.alternate(bits.hr1(maxTrailingSalt + 1, id), into: &out, allowed: allowed)
            pools.balance(into: &out, allowed: allowed)
        }

        // 5. Block shuffle.
        shuffleInBlocks(&out, bits: &bits)
        return out
    }

    /// The hat or X sweep from the two (already shifted) start channels.
    static func makeSweep(shape: Ch3cShape, jump: Int, from a: Int, _ b: Int) -> ChannelSequence {
        var sweep = ChannelSequence()
        switch shape {
        case .x:
            // Channels 0..<78; the run from the lower start climbs, the other falls.
            let up = a < b
            var runA = a, runB = b
            var aDone = false, bDone = false
            while !aDone || !bDone {
                if !aDone {
                    if runA >= 0 && runA < highestChannel { sweep.append(UInt8(runA)) }
                    runA += up ? jump : -jump
                    aDone = up ? runA >= highestChannel : runA < 0
                }
                if !bDone {
                    if runB >= 0 && runB < highestChannel { sweep.append(UInt8(runB)) }
                    runB += up ? -jump : jump
                    bDone = up ? runB < 0 : runB >= highestChannel
                }
            }
        case .hat:
            // Climb from the lower start through 78, then fall from the higher start to 0.
            var ch = min(a, b)
            while ch <= highestChannel {
                sweep.append(UInt8(ch))
                ch += jump
            }
            ch = max(a, b)
            while ch >= 0 {
                if ch <= highestChannel { sweep.append(UInt8(ch)) }
                ch -= jump
            }
        }
        return sweep
    }

    /// Shuffles `seq` in place block by block with cr1 (TID 0): blocks of max(L / 4, 10),
    /// the last block taking the remainder.
    static func shuffleInBlocks<C: BlockCipher>(_ seq: inout ChannelSequence, bits: inout CSRandomBits<C>) {
        let length = seq.count
        guard length > 0 else { return }
        let blockLength = max(length / 4, 10)
        let blocks = max(length / blockLength, 1)
        var block = InlineArray<80, UInt8>(repeating: 0)
        for b in 0..<blocks {
            let start = b * blockLength
            let end = b == blocks - 1 ? length : start + blockLength
            for i in start..<end { block[i - start] = seq.channels[i] }
            bits.cr1(&block, count: end - start, .channelSelection)
            for i in start..<end { seq.channels[i] = block[i - start] }
        }
    }
}
