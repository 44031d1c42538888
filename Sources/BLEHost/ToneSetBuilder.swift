import EmulatorMath
import RangingEstimation
import ReflectorFirmware

/// Turns a procedure's mode-2/3 step results into the estimators' input: per antenna path,
/// the round-trip tone of every step (Core 6.0 Vol 6 Part H §4; reference estimation.md §3.1).
///
/// Without inline PCT transfer the tone is the product of the initiator's and the reflector's
/// PCTs of the same step and path (the sides' steps pair by order, as both run the same plan);
/// the LO phases cancel and the product is the round-trip channel H². With inline PCT the
/// reflector only rotates its tone by the phase it measured, so the initiator's PCT is
/// |H|·e^{j2∠H}: the right phase but a single power of the magnitude. Multiplying it by its own
/// magnitude restores H², the sum-of-exponentials form that IFFT and super-resolution
/// estimators model (phase-slope estimators do not care either way).
/// The tone-extension slot is skipped. A tone is good when every PCT in it was rated high or
/// medium quality.
public enum ToneSetBuilder {
    /// `initiator` are the initiator's steps; `reflector` the reflector's (from RAS) or nil under inline PCT.
    public static func tones(initiator: [SubeventStep], reflector: [StepData?]?, antennaPaths: Int) -> ToneSet {
        let n = max(1, min(4, antennaPaths))
        var paths = [[ToneSet.Tone]](repeating: [], count: n)
        for (k, step) in initiator.enumerated() {
            guard let mine = toneData(step.data) else { continue }
            var theirs: ToneStepData?
            if let reflector {
                guard k < reflector.count, let data = reflector[k], let t = toneData(data) else { continue }
                theirs = t
            }
            for slot in 0..<min(n, mine.antennaPaths) {
                guard let path = AntennaPermutation.path(antennaPaths: n, index: Int(mine.antennaPermutationIndex), slot: slot) else { continue }
                var value = complex(mine[slot].pct)
                var good = usable(mine[slot].quality.quality)
                if let theirs {
                    value = value * complex(theirs[slot].pct)
                    good = good && usable(theirs[slot].quality.quality)
                } else {
                    value = value * value.magnitude
                }
                paths[path].append(ToneSet.Tone(channel: step.channel, value: value, isGood: good))
            }
        }
        return ToneSet(paths: paths)
    }

    static func toneData(_ data: StepData) -> ToneStepData? {
        switch data {
        case .mode2(let t): return t
        case .mode3(_, let t): return t
        default: return nil
        }
    }

    @inline(__always) static func complex(_ pct: PhaseCorrectionTerm) -> Complex { Complex(Double(pct.i), Double(pct.q)) }

    @inline(__always) static func usable(_ q: ToneQuality) -> Bool { q == .high || q == .medium }
}
