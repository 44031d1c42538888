import Testing
@testable import ReflectorFirmware

/// Channel selection algorithm #3c against the NimBLE PR #1765 unit-test vectors
/// (implementation-derived [U]; see the reference notes §3.8) and structural properties.
struct ChannelSelection3cTests {
    static func sampleBits() -> CSRandomBits<AES128> {
        var bits = CSRandomBits(drbg: CSDRBG(iv: CryptoTests.iv, instantiationNonce: CryptoTests.inNonce,
                                             personalization: CryptoTests.pv))
        bits.setStep(0)
        return bits
    }

    static let fullMap = FilteredChannels(map: ChannelMap(hex: "1FFFFFFFFFFFFC7FFFFC")!)

    static let lowMap: FilteredChannels = {
        var m = ChannelMap.none
        for ch in 2...20 { m.insert(ch) }
        return FilteredChannels(map: m)
    }()

    /// 18 channels spread over the band, with gaps and both band edges.
    static let sparseMap: FilteredChannels = {
        var m = ChannelMap.none
        for ch in [2, 3, 9, 17, 22, 26, 31, 38, 40, 45, 50, 52, 58, 63, 67, 70, 75, 76] { m.insert(ch) }
        return FilteredChannels(map: m)
    }()

    static let maps: [(String, FilteredChannels)] = [("full", fullMap), ("2...20", lowMap), ("sparse", sparseMap)]

    @Test func xShapeVector() {
        var bits = Self.sampleBits()
        let seq = ChannelSelection3c.generate(shape: .x, jump: 2, channels: Self.fullMap, bits: &bits)
        let expected: [UInt8] = [
            64, 26, 9, 70, 68, 7, 74, 13, 70, 32, 38, 76, 66, 15, 22, 14, 28, 72, 44, 29,
            5, 45, 3, 57, 11, 33, 48, 62, 75, 52, 35, 21, 31, 7, 60, 17, 46, 18, 29, 27,
            36, 15, 41, 60, 54, 33, 65, 76, 42, 19, 50, 58, 56, 11, 44, 48, 55, 32, 34, 12,
            71, 49, 45, 4, 30, 57, 28, 26, 40, 41, 39, 8, 43, 51, 53, 69, 36, 22, 9, 17,
            38, 47, 37, 6, 16, 18, 10, 63, 4, 14, 8, 20, 65, 2, 46, 37, 61, 27, 40, 69,
            75, 73, 12, 59, 52, 20, 47, 10, 42, 71, 6, 67, 39,
        ]
        #expect(expected.count == 113)
        #expect(Array(seq) == expected)
    }

    @Test func hatShapeVector() {
        var bits = Self.sampleBits()
        let seq = ChannelSelection3c.generate(shape: .hat, jump: 2, channels: Self.fullMap, bits: &bits)
        let expected: [UInt8] = [
            46, 33, 48, 52, 21, 58, 9, 31, 17, 37, 15, 7, 65, 35, 49, 5, 19, 13, 11, 3,
            64, 29, 15, 42, 27, 53, 68, 61, 32, 55, 41, 19, 37, 10, 75, 67, 76, 39, 71, 12,
            53, 43, 59, 26, 16, 21, 49, 51, 73, 8, 57, 45, 38, 63, 69, 61, 47, 65, 42, 39,
            18, 13, 50, 74, 60, 56, 40, 36, 6, 9, 56, 70, 46, 2, 48, 44, 52, 64, 72, 68,
            62, 38, 58, 66, 4, 54, 33, 59, 72, 18, 51, 31, 14, 40, 4, 62, 2, 10, 20, 43,
            6, 16, 7, 66, 30, 22, 32, 60, 27, 11, 57, 26, 28, 12, 8, 34, 47, 67,
        ]
        #expect(expected.count == 118)
        #expect(Array(seq) == expected)
    }

    /// The sweeps before salting and shuffling: X interleaves a climbing and a falling run,
    /// hat climbs then falls.
    @Test func sweepShapes() {
        let x = Array(ChannelSelection3c.makeSweep(shape: .x, jump: 2, from: 1, 76))
        #expect(Array(x.prefix(6)) == [1, 76, 3, 74, 5, 72])
        #expect(Set(x) == Set(0...77))
        #expect(x.count == 78)
        let hat = Array(ChannelSelection3c.makeSweep(shape: .hat, jump: 3, from: 77, 0))
        #expect(hat == Array(stride(from: 0, through: 78, by: 3)).map(UInt8.init)
            + Array(stride(from: 77, through: 0, by: -3)).map(UInt8.init))
    }

    /// The sweep a call used: shifted by (iteration + jitter) mod jump from the jump's starts.
    static func sweep(_ shape: Ch3cShape, _ jump: UInt8, shift: Int) -> Set<UInt8> {
        let starts = ChannelSelection3c.startChannels(jump: Int(jump))
        return Set(ChannelSelection3c.makeSweep(shape: shape, jump: Int(jump), from: starts.first + shift, starts.second + shift))
    }

    /// One sequence (Channel_Map_Repetition 1) for every shape, jump and map: only filtered
    /// channels, within capacity, every swept channel of the map present, deterministic for a
    /// seed, different for another step. For jumps 2 and 3 one sequence already holds every
    /// filtered channel. For jumps 4...8 it does not (the sweep visits two residue classes
    /// modulo the jump and the salt cannot fill the rest); `repetitions` covers that case.
    @Test(arguments: Ch3cShape.allCases, Array(UInt8(2)...8))
    func properties(shape: Ch3cShape, jump: UInt8) {
        for (name, map) in Self.maps {
            let allowed = Set(map.array)
            var bits = Self.sampleBits()
            var state = ChannelSelection3cState()
            let seq = ChannelSelection3c.generate(shape: shape, jump: jump, channels: map, repetitions: 1,
                                                  state: &state, bits: &bits)
            let present = Set(seq)
            #expect(seq.count > 0 && seq.count <= ChannelSequence.capacity, "\(name)")
            #expect(present.isSubset(of: allowed), "\(name): channel outside the map")
            let swept = Self.sweep(shape, jump, shift: Int(state.startJitter) % Int(jump)).intersection(allowed)
            #expect(swept.isSubset(of: present), "\(name): swept channels missing")
            if jump <= 3 {
                #expect(allowed.isSubset(of: present), "\(name): missing \(allowed.subtracting(present).sorted())")
            }

            // The convenience API is the first repetition of a one-repetition procedure.
            var same = Self.sampleBits()
            #expect(ChannelSelection3c.generate(shape: shape, jump: jump, channels: map, bits: &same) == seq, "\(name)")

            // Deterministic for a seed: a second run draws the same bits.
            var again = Self.sampleBits()
            #expect(ChannelSelection3c.generate(shape: shape, jump: jump, channels: map, bits: &again) == seq, "\(name)")

            // Another step draws other bits and so, for the full map, another sequence.
            if name == "full" {
                var other = Self.sampleBits()
                other.setStep(7)
                #expect(ChannelSelection3c.generate(shape: shape, jump: jump, channels: map, bits: &other) != seq)
            }
        }
    }

    /// Channel_Map_Repetition = jump: the state advances once per call, the jitter is drawn
    /// once, each call sweeps one channel further, and together the repetitions hold every
    /// filtered channel.
    @Test(arguments: Ch3cShape.allCases, Array(UInt8(2)...8))
    func repetitions(shape: Ch3cShape, jump: UInt8) {
        for (name, map) in Self.maps {
            let allowed = Set(map.array)
            var bits = Self.sampleBits()
            var state = ChannelSelection3cState()
            var jitter: UInt8 = 0
            var union = Set<UInt8>()
            for r in 0..<Int(jump) {
                let seq = ChannelSelection3c.generate(shape: shape, jump: jump, channels: map,
                                                      repetitions: jump, state: &state, bits: &bits)
                if r == 0 { jitter = state.startJitter }
                #expect(state.iteration == UInt8(r + 1))
                #expect(state.startJitter == jitter && jitter < jump)
                #expect(seq.count > 0 && seq.count <= ChannelSequence.capacity)
                #expect(Set(seq).isSubset(of: allowed), "\(name)")
                let swept = Self.sweep(shape, jump, shift: (r + Int(jitter)) % Int(jump)).intersection(allowed)
                #expect(swept.isSubset(of: Set(seq)), "\(name) repetition \(r)")
                union.formUnion(seq)
            }
            #expect(allowed.isSubset(of: union), "\(name): missing \(allowed.subtracting(union).sorted())")
        }
    }

    /// A map that filters out everything yields an empty sequence and still advances the state.
    @Test func emptyMap() {
        var bits = Self.sampleBits()
        var state = ChannelSelection3cState()
        let seq = ChannelSelection3c.generate(shape: .hat, jump: 2, channels: FilteredChannels(map: .none),
                                              repetitions: 2, state: &state, bits: &bits)
        #expect(seq.isEmpty)
        #expect(state.iteration == 1)
    }
}
