/// The antenna path permutations of mode-2/3 steps (Core 6.0 Vol 6 Part H §4.x, Tables 4.13–4.15):
/// the order in which a step's N_AP tone slots visit the antenna paths. The step draws an index
/// with hr1(N_AP!) and transaction ID 4; the tone-extension slot repeats the last path.
public enum AntennaPermutation {
    /// Number of permutations for `antennaPaths` paths (N_AP!): 1, 2, 6 or 24.
    @inline(__always)
    public static func count(antennaPaths: Int) -> Int {
        switch antennaPaths {
        case 2: return 2
        case 3: return 6
        case 4: return 24
        default: return 1
        }
    }

    /// The antenna path (0-based, A1 = 0) visited in tone slot `slot` (0..<N_AP, or N_AP for the
    /// extension slot) by permutation `index`. `nil` when the index or slot is out of range.
    @inline(__always)
    public static func path(antennaPaths: Int, index: Int, slot: Int) -> Int? {
        guard antennaPaths >= 1, antennaPaths <= 4, index >= 0, index < count(antennaPaths: antennaPaths),
            slot >= 0, slot <= antennaPaths
        else { return nil }
        let s = min(slot, antennaPaths - 1)
        let row: UInt16
        switch antennaPaths {
        case 1: return 0
        case 2: row = index == 0 ? 0x01 : 0x10
        case 3: row = table3.span[index]
        default: row = table4.span[index]
        }
        return Int(row >> UInt16(4 * (antennaPaths - 1 - s))) & 0xF
    }

    /// The whole order of permutation `index` as path indices, extension slot excluded.
    public static func order(antennaPaths: Int, index: Int) -> [Int] {
        (0..<antennaPaths).compactMap { path(antennaPaths: antennaPaths, index: index, slot: $0) }
    }

    /// N_AP = 3, one row per index, one nibble per slot (first slot most significant). Constant
    /// InlineArrays (flash on a board), read through spans: no copy, no lazy initialisation.
    private static let table3: InlineArray<6, UInt16> = [0x012, 0x102, 0x021, 0x201, 0x210, 0x120]

    /// N_AP = 4 (Table 4.15), one nibble per slot.
    private static let table4: InlineArray<24, UInt16> = [
        0x0123, 0x1023, 0x0213, 0x2013, 0x2103, 0x1203, 0x0132, 0x1032,
        0x0312, 0x3012, 0x3102, 0x1302, 0x0321, 0x3021, 0x0231, 0x2031,
        0x2301, 0x3201, 0x3120, 0x1320, 0x3210, 0x2310, 0x2130, 0x1230,
    ]
}
