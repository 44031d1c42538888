@testable import DLTDoA
import EmulatorMath
import Testing

/// The receiver over deployments it was not tuned on: 60 generated rooms (every layout, noise
/// 0.05–0.3 m, losses, crystals), each walked clean and with one anchor shadowed. Issue 13's
/// bar, per noise band: RMSE ≤ 1.2× the line-of-sight CRLB, no fix outside the deployment's
/// volume, no epoch with enough anchors and no fix, the shadowed anchor left out in ≥ 95 % of
/// the epochs that heard it and good anchors in ≤ 2 %.
@Suite struct DLTDOAGeneratedDeploymentTests {
    @Test func generatedDeploymentsHoldTheBar() {
        let bands = DLTDOAStudy().run(seeds: 1...60)
        var deployments = 0
        for b in bands {
            let c = b.clean, s = b.shadowed
            deployments += c.deployments
            print("band \(b.noise): clean \(c.deployments) deployments \(c.fixes) fixes ratio \(c.ratio) well-posed \(c.wellPosedFixes) \(c.wellPosedRatio) outside \(c.outsideVolume) unsolved \(c.unsolvedEpochs) skipped \(c.skippedEpochs) good rejected \(c.goodRejectionRate); shadowed ratio \(s.ratio) well-posed \(s.wellPosedFixes) \(s.wellPosedRatio) rejected \(s.shadowedRejectionRate) good \(s.goodRejectionRate) outside \(s.outsideVolume) unsolved \(s.unsolvedEpochs) skipped \(s.skippedEpochs)")
            #expect(c.fixes >= 200 && s.fixes >= 200)
            #expect(c.ratio <= 1.2, "clean RMSE \(c.rmse) m against the bound \(c.bound) m at \(b.noise)")
            #expect(s.ratio <= 1.2, "shadowed RMSE \(s.rmse) m against the bound \(s.bound) m at \(b.noise)")
            #expect(c.wellPosedRatio <= 1.2 && s.wellPosedRatio <= 1.2)
            #expect(c.outsideVolume == 0 && s.outsideVolume == 0)
            #expect(c.unsolvedEpochs == 0 && s.unsolvedEpochs == 0)
            #expect(c.skippedEpochs == 0 && s.skippedEpochs == 0)
            #expect(s.shadowedRejectionRate >= 0.95)
            #expect(c.goodRejectionRate <= 0.02 && s.goodRejectionRate <= 0.02)
        }
        #expect(deployments == 60)
    }

    /// The generator draws what it says: rooms and noise in range, every layout, anchors inside
    /// the room, clusters of at most 8 with one initiator each, the walk inside the walls.
    @Test func generatorDrawsWithinItsRanges() {
        let generator = DLTDOADeploymentGenerator()
        var layouts = Set<DLTDOADeploymentGenerator.Layout>()
        for seed in UInt64(1)...40 {
            let g = generator.generate(seed: seed, shadowed: seed % 2 == 0)
            let d = g.deployment
            layouts.insert(g.layout)
            #expect((0.05...0.3).contains(d.timestampSigma))
            #expect(g.room.x >= 5 && g.room.x <= 40 && g.room.z >= 2.5 && g.room.z <= 8)
            for a in d.anchors {
                #expect(a.position.x >= 0 && a.position.x <= g.room.x && a.position.y >= 0 && a.position.y <= g.room.y)
                #expect(a.position.z > 0 && a.position.z < g.room.z)
            }
            let clusters = Dictionary(grouping: d.anchors, by: \.cluster)
            for (_, members) in clusters {
                #expect(members.count <= 9 && members.filter(\.isInitiator).count == 1)
            }
            for p in d.path {
                #expect(p.position.x > 0.4 && p.position.x < g.room.x - 0.4 && p.position.z >= 1.1 && p.position.z <= 1.3)
            }
            #expect(d.duration >= generator.walkDuration)
            #expect((g.shadowedAnchor != nil) == (seed % 2 == 0))
        }
        #expect(layouts.count == DLTDOADeploymentGenerator.Layout.allCases.count)
    }
}
