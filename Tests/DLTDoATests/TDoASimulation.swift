@testable import DLTDoA
@testable import EmulatorMath
import Foundation

/// Test support for the TDoA solver tests: anchor layouts and noisy measurements.
enum TDoASimulation {
    /// The 8 corners of a 10 × 8 × 3 m room.
    static let roomCorners: [Vector3] = [
        Vector3(0, 0, 0), Vector3(10, 0, 0), Vector3(10, 8, 0), Vector3(0, 8, 0),
        Vector3(0, 0, 3), Vector3(10, 0, 3), Vector3(10, 8, 3), Vector3(0, 8, 3),
    ]

    /// Six anchors on a 3 m ceiling (corners and the middles of the long walls).
    static let ceiling: [Vector3] = [
        Vector3(0, 0, 3), Vector3(10, 0, 3), Vector3(10, 8, 3), Vector3(0, 8, 3), Vector3(5, 0, 3), Vector3(5, 8, 3),
    ]

    /// One group per cluster (its first anchor is the reference): arrival times d_j + bias_j +
    /// σ·n_j, differences against the reference. `bias` is keyed by (cluster, anchor in cluster).
    static func problem(clusters: [[Vector3]], at x: Vector3, sigma: Double, fixedHeight: Double? = nil,
                        bias: [Int: [Int: Double]] = [:], rng: inout SeededGenerator) -> TDoAProblem {
        var groups: [TDoAGroup] = []
        for (c, anchors) in clusters.enumerated() {
            let t = anchors.enumerated().map { j, a in (x - a).length + (bias[c]?[j] ?? 0) + sigma * rng.gaussian() }
            groups.append(TDoAGroup(reference: anchors[0], anchors: Array(anchors.dropFirst()), rangeDifferences: t.dropFirst().map { $0 - t[0] }))
        }
        return TDoAProblem(groups: groups, timingSigma: sigma, fixedHeight: fixedHeight)
    }
}
