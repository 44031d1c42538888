import EmulatorMath
import RangingEstimation
import ReflectorFirmware

/// The round-trip tones of a procedure's mode-2/3 steps as a real controller rates them: the
/// same tones as BLEHost's `ToneSetBuilder` (path of each tone slot from the Antenna
/// Permutation Index, Core 6.0 Vol 6 Part H Tables 4.13–4.15, as Zephyr's
/// `bt_le_cs_get_antenna_path` and Silicon Labs' parser read it; initiator PCT × reflector
/// PCT, or the inline-PCT PCT times its magnitude; the extension slot left out), with the tone
/// quality read three ways instead of two (Tone_Quality_Indicator, Core 6.0 Vol 4 Part E
/// §7.7.65.44):
///
/// - high or medium on every side: a good tone;
/// - low on either side: a bad tone;
/// - otherwise, unavailable (3) on a side: an unrated tone (`isRated` false), which the
///   estimators judge themselves (`ToneScreening`) instead of dropping it.
///
/// This lives here rather than in `ToneSetBuilder` because BLEHost is being refactored by
/// others; the live paths (`loopback`, `range`) still drop unavailable tones.
public enum StepTones {
    public static func tones(initiator: [SubeventStep], reflector: [StepData?]?, antennaPaths: Int) -> ToneSet {
        let n = max(1, min(4, antennaPaths))
        var paths = [[ToneSet.Tone]](repeating: [], count: n)
        for (k, step) in initiator.enumerated() {
            guard let mine = toneData(step.data) else { continue }
            var theirs: ToneStepData?
            if let reflector {
                guard k < reflector.count, let data = reflector[k], let t = toneData(data), t.antennaPaths == mine.antennaPaths else { continue }
                theirs = t
            }
            for slot in 0..<min(n, mine.antennaPaths) {
                guard let path = AntennaPermutation.path(antennaPaths: n, index: Int(mine.antennaPermutationIndex), slot: slot) else { continue }
                var value = complex(mine[slot].pct)
                var qualities = [mine[slot].quality.quality]
                if let theirs {
                    value = value * complex(theirs[slot].pct)
                    qualities.append(theirs[slot].quality.quality)
                } else {
                    value = value * value.magnitude
                }
                let rating = rating(qualities)
                paths[path].append(ToneSet.Tone(channel: step.channel, value: value, isGood: rating == .good, isRated: rating != .unrated))
            }
        }
        return ToneSet(paths: paths)
    }

    enum Rating { case good, bad, unrated }

    /// Low on any side makes a tone bad; else unavailable on any side leaves it unrated.
    static func rating(_ qualities: [ToneQuality]) -> Rating {
        if qualities.contains(.low) { return .bad }
        if qualities.contains(.unavailable) { return .unrated }
        return .good
    }

    static func toneData(_ data: StepData) -> ToneStepData? {
        switch data {
        case .mode2(let t): return t
        case .mode3(_, let t): return t
        default: return nil
        }
    }

    @inline(__always) static func complex(_ pct: PhaseCorrectionTerm) -> Complex { Complex(Double(pct.i), Double(pct.q)) }
}
