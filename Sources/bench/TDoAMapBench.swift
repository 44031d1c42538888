import DLTDoA
import EmulatorMath
import Foundation

/// The expected-error map `tdoa plan` draws: CRLB evaluations per second over a 10 m × 8 m floor
/// grid at 1.2 m (the default room's eight anchors, 3D, σ 0.1 m). Moved here from the timed unit
/// test gridEvaluationIsCheap.
func benchmarkTDoAMap(seconds: Double) {
    let anchors = DLTDOADeployment.defaultRoom().anchors.map(\.position)
    let geometry = TDoAGeometry(clusters: [anchors], timingSigma: 0.1)
    let clock = ContinuousClock()
    let start = clock.now
    var points = 0
    var sum = 0.0
    while durationSeconds(clock.now - start) < seconds {
        for i in 0..<100 {
            for j in 0..<100 { sum += geometry.crlbRMSE(at: Vector3(Double(i) * 0.1, Double(j) * 0.08, 1.2)) }
        }
        points += 10_000
    }
    let rate = Double(points) / durationSeconds(clock.now - start)
    print("tdoa map: \(Int(rate)) CRLB evaluations/s (8 anchors, 3D; mean expected error \(String(format: "%.4f", sum / Double(points))) m)")
}
