@testable import BLEHost
import Foundation
@testable import PhoneEmulation
@testable import RadioWorld
@testable import RangingEstimation
@testable import ReflectorFirmware
import Testing

/// Accuracy of the whole loopback (both controllers, HCI, LL, air, estimation) against truth
/// and the Cramér-Rao bound: the project's acceptance figures.
struct LoopbackAccuracyTests {
    /// Runs `count` procedures and returns (truth, estimate) pairs.
    static func run(_ setup: LoopbackSetup, procedures count: Int, estimator: some DistanceEstimator) -> [(Double, Double?)] {
        var link = setup.makeLink()
        _ = link.settle()
        var out: [(Double, Double?)] = []
        while out.count < count {
            guard let outputs = link.runProcedure() else { break }
            for case let .procedure(p, reflector) in outputs {
                let tones = ToneSetBuilder.tones(initiator: p.steps, reflector: reflector, antennaPaths: p.antennaPaths)
                out.append((setup.scenario.geometry.distance, estimator.estimate(tones)?.distance))
            }
        }
        return out
    }

    /// Free space at 20 dB: RMSE within 1.5× the two-sided CRLB over 0.5 to 40 m, with and without inline PCT.
    @Test(arguments: [true, false])
    func freeSpaceMeetsTheBound(inlinePCT: Bool) {
        let crlb = CramerRaoBound.distanceStandardDeviation(frequencies: CramerRaoBound.allowedChannelFrequencies, snrDB: 20, noise: .twoSided)
        var squared = 0.0
        var n = 0
        for (k, distance) in [0.5, 1.5, 3.0, 7.0, 12.0, 20.0, 30.0, 40.0].enumerated() {
            let scenario = AirScenario(seed: UInt64(100 + k), geometry: AirGeometry(distance: distance), snrDB: 20)
            for (truth, estimate) in Self.run(LoopbackSetup(scenario: scenario, inlinePCT: inlinePCT), procedures: 25, estimator: PhaseSlopeEstimator(variant: .kay)) {
                guard let e = estimate else { Issue.record("no estimate at \(distance) m"); continue }
                squared += (e - truth) * (e - truth)
                n += 1
            }
        }
        let rmse = (squared / Double(n)).squareRoot()
        #expect(n == 200)
        #expect(rmse < 1.5 * crlb, "RMSE \(rmse) m against CRLB \(crlb) m (ratio \(rmse / crlb))")
        #expect(rmse > 0.5 * crlb, "an RMSE far under the bound means the noise is not reaching the estimate")
    }

    /// A reflection 3 m longer than the direct path: the super-resolution estimator keeps the
    /// 90th-percentile error under 0.3 m; IFFT peak picking does not.
    @Test(arguments: [true, false])
    func superResolutionSeparatesAReflection3mLonger(inlinePCT: Bool) {
        var scenario = AirScenario(seed: 42, geometry: AirGeometry(distance: 5.0), channelModel: .twoRay(excessPath: 3.0, amplitude: 0.7, phase: nil), snrDB: 20)
        scenario.channelCoherenceTime = 150_000  // a new reflection phase every procedure
        func p90(_ estimator: some DistanceEstimator) -> Double {
            let errors = Self.run(LoopbackSetup(scenario: scenario, inlinePCT: inlinePCT), procedures: 60, estimator: estimator).map { abs(($0.1 ?? .infinity) - $0.0) }.sorted()
            return errors[Int(0.9 * Double(errors.count - 1))]
        }
        let esprit = p90(ESPRITEstimator())
        let ifft = p90(IFFTEstimator())
        #expect(esprit < 0.3, "ESPRIT P90 \(esprit) m, inline PCT \(inlinePCT)")
        #expect(ifft > 0.3, "IFFT P90 \(ifft) m")
    }
}
