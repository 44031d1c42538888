import EmulatorMath
@testable import RadioWorld
import Testing

/// `ChannelRealization.twoRay()`: the reflection as `TwoPathBound` models it, relative to the
/// direct path on CS channel 0, reproduces the realization's own response on every channel.
@Suite struct ChannelRealizationTwoRayTests {
    @Test func theReflectionReproducesTheResponse() throws {
        var rng = SeededGenerator(seed: 5)
        let r = ChannelRealization.draw(.twoRay(excessPath: 1.5, amplitude: 0.3, phase: nil), pairs: 2, distance: 4, using: &rng)
        let ray = try #require(r.twoRay(pair: 1))
        #expect(abs(ray.excess - 1.5) < 1e-9 && abs(ray.reflection.magnitude - 0.3) < 1e-9)
        for k in [0, 2, 40, 78] {
            let f = (2402.0 + Double(k)) * 1e6
            let g0 = r.gain(pair: 1, tap: 0)
            let h = r.response(pair: 1, frequency: f, lineOfSightLength: 0) * g0.conjugate * (1 / g0.magnitudeSquared)
            let model = Complex.one + ray.reflection * Complex(phase: -2 * Double.pi * Double(k) * 1e6 * 1.5 / Air.speedOfLight)
            #expect((h - model).magnitude < 1e-9, "channel \(k)")
        }
        #expect(ChannelRealization.draw(.freeSpace, pairs: 1, distance: 4, using: &rng).twoRay() == nil)
    }
}
