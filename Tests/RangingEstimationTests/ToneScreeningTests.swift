@testable import EmulatorMath
import Foundation
@testable import RangingEstimation
import Testing
import TestSupport

/// The estimators' judgement of tones a controller rated "quality unavailable".
struct ToneScreeningTests {
    static func unrated(_ tones: [ToneSet.Tone]) -> [ToneSet.Tone] {
        tones.map { var t = $0; t.isRated = false; t.isGood = false; return t }
    }

    static func paths(_ n: Int, distance: Double = 3, snrDB: Double? = 30, seed: UInt64 = 5) -> [[ToneSet.Tone]] {
        var rng = SplitMix64(seed: seed)
        return (0..<n).map { p in
            ToneSimulator.path(rays: [.init(distance: distance + 0.02 * Double(p), amplitude: Complex(1 + 0.5 * Double(p)))], snrDB: snrDB, rng: &rng)
        }
    }

    @Test func cleanUnratedTonesAreAllKeptAndEstimateAsRated() {
        let rated = ToneSet(paths: Self.paths(4))
        let unrated = ToneSet(paths: rated.paths.map(Self.unrated))
        let judged = ToneScreening.default.judged(unrated)
        #expect(judged.paths.allSatisfy { $0.allSatisfy { $0.isRated && $0.isGood } })
        #expect(judged == rated)
        for choice: any DistanceEstimator in [PhaseSlopeEstimator(), IFFTEstimator(), ESPRITEstimator(), MultipathFitEstimator()] {
            let a = choice.estimate(rated), b = choice.estimate(unrated)
            #expect(a != nil && a?.distance == b?.distance)
        }
        // Dropped as before, no estimate at all.
        #expect(PhaseSlopeEstimator().estimate(ToneSet(paths: rated.paths.map { $0.map { var t = $0; t.isGood = false; return t } })) == nil)
    }

    @Test func ratedTonesAreLeftAsRatedAndASetWithoutUnratedIsUntouched() {
        var paths = Self.paths(1)
        paths[0][3].isGood = false
        paths[0][4].value = .zero  // rated good by the controller: kept, whatever it holds
        let set = ToneSet(paths: paths)
        #expect(ToneScreening.default.judged(set) == set)
        paths[0][5].isRated = false
        paths[0][5].isGood = false
        let judged = ToneScreening.default.judged(ToneSet(paths: paths))
        #expect(judged.paths[0][3].isGood == false && judged.paths[0][4].isGood == true && judged.paths[0][5].isGood == true)
    }

    @Test func amplitudeOutsideThePathsWindowFails() {
        var path = Self.unrated(Self.paths(1)[0])
        path[10].value = .zero                        // not received
        path[11].value = path[11].value * 0.05        // −26 dB
        path[12].value = path[12].value * 0.2         // −14 dB: kept
        path[13].value = path[13].value * 20          // +26 dB: saturated or wrong
        path[14].value = Complex(.nan, 0)
        let judged = ToneScreening.default.judged(ToneSet(paths: [path]))
        #expect((10...14).map { judged.paths[0][$0].isGood } == [false, false, true, false, false])
        #expect(judged.paths[0].filter(\.isGood).count == path.count - 4)
        // A weaker antenna path is judged against its own median, not the procedure's.
        var two = Self.paths(2).map(Self.unrated)
        two[1] = two[1].map { var t = $0; t.value = t.value * 0.01; return t }   // −40 dB path
        #expect(ToneScreening.default.judged(ToneSet(paths: two)).goodToneCount == 2 * 72)
    }

    @Test func aRepeatedChannelThatDisagreesFails() {
        var path = Self.unrated(Self.paths(1, snrDB: nil)[0])
        var again = path[20], flipped = path[30], third = path[30]
        again.value = again.value * Complex(phase: 0.1)
        flipped.value = flipped.value * Complex(phase: 2.5)
        third.value = third.value * Complex(phase: -0.05)
        path += [again, flipped, third]
        let judged = ToneScreening.default.judged(ToneSet(paths: [path])).paths[0]
        #expect(judged[20].isGood && judged[72].isGood)              // 0.1 rad apart: both kept
        #expect(judged[30].isGood && judged[74].isGood && !judged[73].isGood)  // the odd one of three fails
    }

    @Test func aToneOffTheOtherPathsPhaseStepsFails() {
        var paths = Self.paths(4, snrDB: nil).map(Self.unrated)
        paths[2][40].value = paths[2][40].value * Complex(phase: 2.8)
        paths[0][0].value = paths[0][0].value * Complex(phase: -2.8)  // at the edge: one step only
        let judged = ToneScreening.default.judged(ToneSet(paths: paths))
        #expect(!judged.paths[2][40].isGood && !judged.paths[0][0].isGood)
        #expect(judged.goodToneCount == 4 * 72 - 2)
        // With two paths there is no majority: nothing is taken out on phase steps.
        var two = Array(paths.prefix(2))
        two[1][40].value = two[1][40].value * Complex(phase: 2.8)
        #expect(ToneScreening.default.judged(ToneSet(paths: two)).goodToneCount == 2 * 72)
    }
}
