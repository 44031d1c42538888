@testable import EmulatorMath
import Foundation
@testable import NearbyEmulation
import Testing

/// The direction's Cramér–Rao bound against closed forms, and the fusion read against it.
struct DirectionBoundTests {
    static let token = NearbyDiscoveryToken(identifier: UUID(uuidString: "00000000-0000-0000-0000-0000000000B0")!)

    /// An update from a phone at `phone` of a still accessory at `accessory`, its raw distance
    /// `error` off the truth.
    static func record(phone: Vector3, accessory: Vector3, error: Double?, direction: Bool = true) -> NearbyUpdateRecord {
        let truth = (accessory - phone).length
        let object = NearbyObject(discoveryToken: token, distance: truth, direction: direction ? Vector3(0, 0, -1) : nil,
                                  horizontalAngle: nil, time: 0, measurementRate: 20)
        return NearbyUpdateRecord(object: object, trueDistance: truth, trueDirection: Vector3(0, 0, -1), phonePose: Pose(position: phone),
                                  accessoryPosition: accessory, rawDistance: error.map { truth + $0 }, fusedDirection: nil)
    }

    @Test func theMedianOfAGaussianNormIsTheRayleighsAndTheHalfNormals() {
        // Equal variances: a Rayleigh, median σ√(2 ln 2); one zero: a half-normal, median 0.6745σ.
        #expect(abs(DirectionBound.medianNorm(0.04, 0.04) - 0.2 * (2 * log(2.0)).squareRoot()) < 1e-9)
        #expect(abs(DirectionBound.medianNorm(0.04, 0) - 0.2 * 0.674489750196) < 1e-6)
        // In between, monotone in the minor variance.
        let between = DirectionBound.medianNorm(0.04, 0.01)
        #expect(between > 0.2 * 0.674489750196 && between < 0.2 * (2 * log(2.0)).squareRoot())
    }

    /// Ranges along three orthogonal axes, n each: F = (n/σ²)·I, so from 4 m away the direction's
    /// error is isotropic with σ/(4√n) per axis and its median σ/(4√n)·√(2 ln 2).
    @Test func orthogonalRangesGiveTheClosedForm() throws {
        let x = Vector3(1, 2, 3)
        let n = 30
        var updates = [NearbyUpdateRecord]()
        for axis in [Vector3(1, 0, 0), Vector3(0, 0, 1), Vector3(0, 1, 0)] {
            // Errors ±0.1 m: median 0, every deviation 0.1, so σ = 1.4826 × 0.1.
            for k in 0..<n { updates.append(Self.record(phone: x - axis * 4, accessory: x, error: k % 2 == 0 ? 0.1 : -0.1, direction: false)) }
        }
        updates[updates.count - 1].object.direction = Vector3(0, 0, -1)
        let bound = try #require(DirectionBound(updates))
        let sigma = 0.14826
        #expect(abs(bound.rangeSigma - sigma) < 1e-12)
        // Two ranges in: no position yet.
        #expect(bound.medianErrors[1] == nil)
        // One axis, or two, leave the information singular: no bound until the third.
        #expect(bound.medianErrors[n - 1] == nil && bound.medianErrors[2 * n - 1] == nil)
        #expect(bound.medianErrors[2 * n] != nil)
        let last = try #require(bound.medianErrors.last ?? nil)
        #expect(abs(last - sigma / (4 * Double(n).squareRoot()) * (2 * log(2.0)).squareRoot()) < 1e-9)
        // The median over the updates with a direction: only the last one here.
        #expect(bound.median(over: updates) { $0.object.direction != nil } == last)
    }

    @Test func aMovingAccessoryOrTooFewRangesHasNoBound() {
        let still = (0..<20).map { Self.record(phone: Vector3(Double($0) * 0.01, 0, 0), accessory: Vector3(0, 4, 0), error: $0 % 2 == 0 ? 0.05 : -0.05) }
        #expect(DirectionBound(still) != nil)
        var moving = still
        moving[10] = Self.record(phone: Vector3(0.1, 0, 0), accessory: Vector3(0.5, 4, 0), error: 0.05)
        #expect(DirectionBound(moving) == nil)
        let failed = still.enumerated().map { $0.offset < 12 ? Self.record(phone: $0.element.phonePose.position, accessory: Vector3(0, 4, 0), error: nil) : $0.element }
        #expect(DirectionBound(failed) == nil)
    }
}
