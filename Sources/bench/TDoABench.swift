import DLTDoA
import EmulatorMath
import Foundation
import NearbyEmulation

/// DL-TDoA: the position solver's fixes per second on one core (8 anchors, Chan–Ho then
/// Levenberg–Marquardt with the NLOS test), and the accuracy of whole simulated runs against
/// the Cramér-Rao bound for a few noise levels and deployments.
func benchmarkTDoA(seconds: Double) {
    // Solver throughput on 1,000 noisy epochs of the default room.
    let room = DLTDOADeployment.defaultRoom()
    let anchors = room.anchors.map(\.position)
    var rng = SeededGenerator(seed: 5)
    // As the positioner asks: the deployment's volume and the tracker's prediction (near the
    // truth, 0.2 m σ per axis).
    let volume = TDoAVolume(anchors: anchors, floor: 0)
    let problems: [(TDoAProblem, TDoAPrediction)] = (0..<1000).map { _ in
        let x = Vector3(1 + 8 * rng.uniform(), 1 + 6 * rng.uniform(), 1.2)
        let noisy = anchors.map { ($0 - x).length + 0.1 * rng.gaussian() }
        let group = TDoAGroup(reference: anchors[0], anchors: Array(anchors.dropFirst()),
                              rangeDifferences: noisy.dropFirst().map { $0 - noisy[0] })
        let predicted = x + Vector3(0.2 * rng.gaussian(), 0.2 * rng.gaussian(), 0.2 * rng.gaussian())
        return (TDoAProblem(groups: [group], timingSigma: 0.1, volume: volume), TDoAPrediction(position: predicted, covariance: .diagonal(0.04, 0.04, 0.04)))
    }
    let solver = TDoASolver()
    let clock = ContinuousClock()
    let start = clock.now
    var fixes = 0
    var checksum = 0.0
    while durationSeconds(clock.now - start) < seconds {
        for (p, prediction) in problems {
            if let f = solver.solve(p, prediction: prediction) { checksum += f.position.x }
            fixes += 1
        }
    }
    let rate = Double(fixes) / durationSeconds(clock.now - start)
    print("tdoa: \(Int(rate)) fixes/s on one core (8 anchors, 3D, volume and prediction, Chan-Ho + Levenberg-Marquardt + NLOS test), checksum \(Int(checksum) % 1000)")

    // Accuracy of whole runs (three seeds each): RMSE of the fixes and of the tracked path against the CRLB.
    func row(_ name: String, _ make: (UInt64) -> (DLTDOADeployment, DLTDOASimulation.Options)) {
        var errors: [Double] = [], tracked: [Double] = [], bounds: [Double] = [], rejected = 0
        for seed in UInt64(1)...3 {
            let (d, o) = make(seed)
            let run = DLTDOASimulation.run(d, o)
            errors += run.records.map(\.fixError)
            tracked += run.records.compactMap(\.trackedError)
            bounds += run.records.map(\.bound).filter(\.isFinite)
            rejected += run.records.filter { !$0.fix.fix.rejectedAnchors.isEmpty }.count
        }
        func rms(_ v: [Double]) -> Double { (v.map { $0 * $0 }.reduce(0, +) / Double(max(v.count, 1))).squareRoot() }
        let p90 = Quantile.of(errors, 0.9) ?? .nan
        let f = { (v: Double) in String(format: "%.3f", v) }
        print("tdoa: \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) fixes \(errors.count)  RMSE \(f(rms(errors))) m  90th percentile (interpolated) \(f(p90)) m  "
              + "tracked \(f(rms(tracked))) m  CRLB \(f(rms(bounds))) m  ratio \(String(format: "%.2f", rms(errors) / rms(bounds)))  NLOS rejections \(rejected)")
    }
    func clean(_ sigma: Double) -> (UInt64) -> (DLTDOADeployment, DLTDOASimulation.Options) {
        { seed in
            var d = DLTDOADeployment.defaultRoom(seed: seed)
            d.timestampSigma = sigma
            var o = DLTDOASimulation.Options(networkIdentifier: 0x1234)
            o.anchorTimestampSigma = 0
            return (d, o)
        }
    }
    for sigma in [0.05, 0.10, 0.20, 0.30] { row("default room, phone σ \(sigma) m", clean(sigma)) }
    row("default room, σ 0.10 + anchors 0.03, 2% loss") { seed in
        var d = DLTDOADeployment.defaultRoom(seed: seed)
        d.lossProbability = 0.02
        return (d, DLTDOASimulation.Options(networkIdentifier: 0x1234))
    }
    row("one anchor behind a cabinet (+1 m)") { seed in
        var d = DLTDOADeployment.defaultRoom(seed: seed)
        d.zones = [DLTDOADeployment.NLOSZone(minimum: Vector3(8.6, 0, 0), maximum: Vector3(9.4, 1.2, 1.2), bias: 1.0)]
        return (d, DLTDOASimulation.Options(networkIdentifier: 0x1234))
    }
    row("ceiling anchors only (2D at 1.2 m)") { seed in
        var d = DLTDOADeployment.defaultRoom(seed: seed)
        d.anchors = d.anchors.map { var a = $0; a.position.z = 2.8; return a }
        return (d, DLTDOASimulation.Options(networkIdentifier: 0x1234))
    }
}
