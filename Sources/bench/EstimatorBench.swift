import BLEHost
import PhoneEmulation
import RadioWorld
import RangingEstimation
import ReflectorFirmware

/// Each estimator alone on tones made in advance (the loopback's air at 20 dB, inline PCT, the
/// reflector at 3–8 m): microseconds per estimate for free space, light multipath and a strong
/// reflection, at N_AP 1 and 4 (`--only NAME` for one, under a profiler). What `bench loopback` measures minus the simulation.
/// The phase-based estimators run on main-mode-2 procedures (as before RTT existed, so the
/// figures compare); `rtt` and `combined` (ml with rtt) on main-mode-3 procedures of the same
/// links, where every step has a tone and a round trip.
func benchmarkEstimators(seconds: Double, only: String?) {
    let all: [(String, any DistanceEstimator)] = [
        ("kay", PhaseSlopeEstimator(variant: .kay)), ("ifft", IFFTEstimator()), ("esprit", ESPRITEstimator()),
        ("ml", MultipathFitEstimator()), ("rtt", RoundTripTimeEstimator()), ("combined", CombinedEstimator()),
    ]
    let estimators = all.filter { only == nil || $0.0 == only }
    let channels: [(String, AirChannelModel)] = [
        ("free", .freeSpace), ("light", .twoRay(excessPath: 1.5, amplitude: 0.3, phase: nil)),
        ("two-ray", .twoRay(excessPath: 3, amplitude: 0.7, phase: nil)),
    ]
    for aci: UInt8 in [0, 6] {
        for (channelName, model) in channels {
            func procedures(_ mode: CSMode) -> [(tones: ToneSet, roundTrips: RoundTripTimes)] {
                var out: [(tones: ToneSet, roundTrips: RoundTripTimes)] = []
                for (k, d) in [3.0, 5, 8].enumerated() {
                    var scenario = AirScenario(seed: UInt64(500 + k), geometry: AirGeometry(distance: d), channelModel: model, snrDB: 20)
                    scenario.channelCoherenceTime = 150_000
                    var setup = LoopbackSetup(scenario: scenario, antennaConfigurationIndex: aci)
                    setup.configuration.mainMode = mode
                    var link = setup.makeLink()
                    _ = link.settle()
                    while out.count < 20 * (k + 1), let outputs = link.runProcedure() {
                        for case let .procedure(p, reflector) in outputs {
                            out.append((ToneSetBuilder.tones(initiator: p.steps, reflector: reflector, antennaPaths: p.antennaPaths,
                                                             inlinePCT: link.initiatorHost.usesInlinePCT),
                                        RoundTripTimeBuilder.times(initiator: p.steps, reflector: reflector)))
                        }
                    }
                }
                return out
            }
            let phaseOnly = procedures(.mode2), both = procedures(.mode3)
            var line = "estimators: N_AP \(AntennaConfiguration(index: aci)!.antennaPaths), \(channelName):"
            for (name, estimator) in estimators {
                let procedures = name == "rtt" || name == "combined" ? both : phaseOnly
                var runs = 0
                var checksum = 0.0
                let elapsed = repeatFor(seconds: seconds) {
                    for p in procedures { checksum += estimator.estimate(p.tones, roundTrips: p.roundTrips)?.distance ?? 0 }
                    runs += procedures.count
                }
                let micros = elapsed * 1e6 / Double(runs)
                line += " \(name) \(Int(micros.rounded())) µs"
                if checksum.isNaN { line += " (NaN)" }
            }
            print(line)
        }
    }
}
