import WireFormat

/// The phase-based ranging part of a mode-2 or mode-3 step: `Antenna_Permutation_Index 1`
/// then N_AP+1 tone entries, the last being the tone-extension slot
/// (Core 6.0 Vol 4 Part E §7.7.65.44; permutation tables Core 6.0 Vol 6 Part H Tables 4.13–4.15).
/// Fixed-size storage for up to N_AP+1 = 5 tones, so building it does not allocate.
public struct ToneStepData: Sendable, Equatable {
    public var antennaPermutationIndex: UInt8
    /// N_AP, 1...4; the step holds `antennaPaths + 1` tones.
    public let antennaPaths: Int
    public var tones: InlineArray<5, ToneMeasurement>

    /// All tones zero (quality high); fill them with the subscript. `antennaPaths` is clamped to 1...4.
    public init(antennaPermutationIndex: UInt8 = 0, antennaPaths: Int) {
        self.antennaPermutationIndex = antennaPermutationIndex
        self.antennaPaths = Swift.min(Swift.max(antennaPaths, 1), 4)
        tones = InlineArray(repeating: ToneMeasurement())
    }

    /// From 2...5 tones (N_AP = count − 1); `nil` otherwise.
    public init?(antennaPermutationIndex: UInt8, tones list: [ToneMeasurement]) {
        guard (2...5).contains(list.count) else { return nil }
        self.init(antennaPermutationIndex: antennaPermutationIndex, antennaPaths: list.count - 1)
        for k in 0..<list.count { tones[k] = list[k] }
    }

    /// N_AP + 1.
    public var toneCount: Int { antennaPaths + 1 }

    public subscript(k: Int) -> ToneMeasurement {
        get { tones.span[k] }  // a span: a run-time index would read a copy of all five tones
        set { tones[k] = newValue }
    }

    /// The tones in use, as an array (for tests and tools).
    public var toneArray: [ToneMeasurement] { (0..<toneCount).map { tones[$0] } }

    /// The largest Antenna_Permutation_Index for `antennaPaths`: N_AP! − 1 (0, 1, 5, 23).
    public static func maxPermutationIndex(antennaPaths: Int) -> UInt8 {
        switch antennaPaths {
        case 2: return 1
        case 3: return 5
        case 4: return 23
        default: return 0
        }
    }

    /// 1 + 4(N_AP+1) octets.
    public static func encodedLength(antennaPaths: Int) -> Int { 1 + ToneMeasurement.encodedLength * (antennaPaths + 1) }
    public var encodedLength: Int { ToneStepData.encodedLength(antennaPaths: antennaPaths) }

    public static func == (a: ToneStepData, b: ToneStepData) -> Bool {
        guard a.antennaPermutationIndex == b.antennaPermutationIndex, a.antennaPaths == b.antennaPaths else { return false }
        for k in 0..<a.toneCount where a.tones[k] != b.tones[k] { return false }
        return true
    }

    func encode(into w: inout ByteWriter) {
        w.u8(antennaPermutationIndex)
        let t = tones.span
        for k in 0..<toneCount {
            t[k].pct.encode(into: &w)
            w.u8(t[k].quality.octet)
        }
    }

    static func decode(antennaPaths: Int, from r: inout ByteReader) throws(DecodeError) -> ToneStepData {
        let index = try r.u8("Antenna_Permutation_Index")
        guard index <= maxPermutationIndex(antennaPaths: antennaPaths) else {
            throw .invalidValue(field: "Antenna_Permutation_Index", value: Int(index))
        }
        var d = ToneStepData(antennaPermutationIndex: index, antennaPaths: antennaPaths)
        for k in 0..<d.toneCount {
            let pct = try PhaseCorrectionTerm.decode(from: &r)
            let tqi = try ToneQualityIndicator(octet: try r.u8("Tone_Quality_Indicator"))
            d.tones[k] = ToneMeasurement(pct: pct, quality: tqi)
        }
        return d
    }
}
