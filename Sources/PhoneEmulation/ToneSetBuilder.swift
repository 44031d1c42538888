import EmulatorMath
import RangingEstimation
import ReflectorFirmware

/// Turns a procedure's mode-2/3 step results into the estimators' input: per antenna path,
/// the round-trip tone of every step (Core 6.0 Vol 6 Part H §4; reference estimation.md §3.1),
/// for the live paths (loopback, `range`, the sessions) and for captures and vendors' logs alike.
///
/// Each tone slot goes to the antenna path its Antenna Permutation Index names (Vol 6 Part H
/// Tables 4.13–4.15, as Zephyr's `bt_le_cs_get_antenna_path` and Silicon Labs' parser read it);
/// the tone-extension slot is left out. Without inline PCT transfer the tone is the product of
/// the initiator's and the reflector's PCTs of the same step and path (the sides' steps pair by
/// order, as both run the same plan); the LO phases cancel and the product is the round-trip
/// channel H². With inline PCT the reflector only rotates its tone by the phase it measured, so
/// the initiator's PCT is |H|·e^{j2∠H}: the right phase but a single power of the magnitude.
/// Multiplying it by its own magnitude restores H², the sum-of-exponentials form that IFFT and
/// super-resolution estimators model (phase-slope estimators do not care either way).
///
/// Tone quality is read three ways (Tone_Quality_Indicator, Vol 4 Part E §7.7.65.44): high or
/// medium on every side is a good tone, low on either side a bad one, and otherwise
/// "unavailable" (3) leaves it unrated (`isRated` false), for the estimators to judge
/// themselves (`ToneScreening`) instead of dropping it: Silicon Labs' controllers rate every
/// tone so.
public enum ToneSetBuilder {
    /// `initiator` are the initiator's steps; `reflector` the reflector's (from RAS or its own
    /// capture) or nil under inline PCT. With `inlinePCT` the reflector's steps (which came
    /// for their round-trip times) are not multiplied in.
    public static func tones(initiator: [SubeventStep], reflector: [StepData?]?, antennaPaths: Int, inlinePCT: Bool = false) -> ToneSet {
        let reflector = inlinePCT ? nil : reflector
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
                var rating = Rating(mine[slot].quality.quality)
                if let theirs {
                    value = value * complex(theirs[slot].pct)
                    rating = rating.with(Rating(theirs[slot].quality.quality))
                } else {
                    value = value * value.magnitude
                }
                paths[path].append(ToneSet.Tone(channel: step.channel, value: value, isGood: rating == .good, isRated: rating != .unrated))
            }
        }
        return ToneSet(paths: paths)
    }

    /// One side's own PCTs per antenna path, as its controller reported them (no product, no
    /// squaring): the phase still holds that side's LO phase, so it is for looking at (the
    /// accessory's live view), not for estimating a distance.
    public static func oneSide(_ steps: [SubeventStep], antennaPaths: Int) -> ToneSet {
        let n = max(1, min(4, antennaPaths))
        var paths = [[ToneSet.Tone]](repeating: [], count: n)
        for step in steps {
            guard let mine = toneData(step.data) else { continue }
            for slot in 0..<min(n, mine.antennaPaths) {
                guard let path = AntennaPermutation.path(antennaPaths: n, index: Int(mine.antennaPermutationIndex), slot: slot) else { continue }
                let rating = Rating(mine[slot].quality.quality)
                paths[path].append(ToneSet.Tone(channel: step.channel, value: complex(mine[slot].pct), isGood: rating == .good, isRated: rating != .unrated))
            }
        }
        return ToneSet(paths: paths)
    }

    /// One side's word on a tone, and two sides' together: low on either makes it bad, else
    /// unavailable on either leaves it unrated.
    enum Rating: Equatable {
        case good, bad, unrated

        init(_ q: ToneQuality) {
            switch q {
            case .high, .medium: self = .good
            case .low: self = .bad
            case .unavailable: self = .unrated
            }
        }

        func with(_ other: Rating) -> Rating {
            if self == .bad || other == .bad { return .bad }
            if self == .unrated || other == .unrated { return .unrated }
            return .good
        }
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
