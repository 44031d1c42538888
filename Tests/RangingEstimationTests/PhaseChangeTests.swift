import EmulatorMath
import Foundation
@testable import RangingEstimation
import Testing

/// The carrier phase's change between two procedures: −4π·f₀·Δd/c modulo 2π, whatever fixed
/// phase each channel's radios add, with the expected change a decimetre off; incoherent when
/// the channel changed; nothing from too few tones both procedures hold.
@Suite struct PhaseChangeTests {
    typealias Ray = ToneSimulator.Ray

    /// `light` multipath at `d` (a reflection 10 dB down, 1.5 m longer), 30 dB per tone, every
    /// channel turned by the radios' own fixed phase (the same every procedure).
    static func procedure(_ d: Double, rng: inout SplitMix64) -> ToneSet {
        let rays = [Ray(distance: d, amplitude: .one), Ray(distance: d + 1.5, amplitude: Complex(phase: 2.1) * 0.3)]
        return ToneSet(paths: [ToneSimulator.path(rays: rays, snrDB: 30, rng: &rng).map { t in
            var t = t
            t.value = t.value * Complex(phase: 0.37 * Double(Int(t.channel) * Int(t.channel) % 17))
            return t
        }])
    }

    @Test func readsTheChangeModuloHalfAWavelength() throws {
        var rng = SplitMix64(seed: 5)
        let earlier = Self.procedure(3, rng: &rng)
        for change in [0.004, -0.021, 0.05, 0.27, -0.41] {
            let later = Self.procedure(3 + change, rng: &rng)
            let m = try #require(PhaseChange.measure(from: earlier, to: later, expectedChange: change + 0.1))
            let expected = remainder(-m.wavenumber * change, 2 * Double.pi)
            let error = remainder(m.phase - expected, 2 * Double.pi)
            // 0.03 rad is 0.3 mm of distance.
            #expect(abs(error) < 0.03, "Δd \(change) m: phase \(m.phase), expected \(expected)")
            #expect(m.coherence > 0.95)
            #expect(m.toneCount == 72)
            // f₀ is the tones' weighted mean frequency: inside the band, 4π·f₀/c about 102 rad/m.
            #expect(m.frequency > 2.43e9 && m.frequency < 2.45e9)
            #expect(abs(m.wavenumber - 4 * Double.pi * m.frequency / Ranging.speedOfLight) < 1e-9)
        }
    }

    /// Half a wavelength of change reads as none: the ambiguity a direction filter resolves.
    @Test func halfAWavelengthIsNoChange() throws {
        var rng = SplitMix64(seed: 6)
        let earlier = Self.procedure(4, rng: &rng)
        let probe = try #require(PhaseChange.measure(from: earlier, to: earlier, expectedChange: 0))
        #expect(abs(probe.phase) < 1e-9)
        // 2π of round-trip phase: Δd = 2π/k = c/(2·f₀), 6.1 cm.
        let halfWave = 2 * Double.pi / probe.wavenumber
        #expect(abs(halfWave - 0.0614) < 0.0005)
        let later = Self.procedure(4 + halfWave, rng: &rng)
        let m = try #require(PhaseChange.measure(from: earlier, to: later, expectedChange: 0))
        #expect(abs(remainder(m.phase, 2 * Double.pi)) < 0.05)
    }

    @Test func aChangedChannelIsIncoherent() throws {
        var rng = SplitMix64(seed: 7)
        let earlier = Self.procedure(3, rng: &rng)
        var later = Self.procedure(3, rng: &rng)
        for k in later.paths[0].indices { later.paths[0][k].value = later.paths[0][k].value * Complex(phase: 2 * Double.pi * rng.uniform()) }
        let m = try #require(PhaseChange.measure(from: earlier, to: later, expectedChange: 0))
        #expect(m.coherence < 0.3)
    }

    /// Bad tones do not count; fewer than 16 tones on channels both procedures hold give nothing.
    @Test func onlyGoodTonesBothHold() throws {
        var rng = SplitMix64(seed: 8)
        let earlier = Self.procedure(3, rng: &rng)
        let later = Self.procedure(3.02, rng: &rng)
        var spoiled = later
        for k in spoiled.paths[0].indices where k % 2 == 0 {
            spoiled.paths[0][k].isGood = false
            spoiled.paths[0][k].value = Complex(1e3, -7e2)
        }
        var trimmed = later
        trimmed.paths[0] = later.paths[0].enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        let a = try #require(PhaseChange.measure(from: earlier, to: spoiled, expectedChange: 0))
        let b = try #require(PhaseChange.measure(from: earlier, to: trimmed, expectedChange: 0))
        #expect(a == b)
        #expect(a.toneCount == 36)
        var few = later
        few.paths[0] = Array(later.paths[0].prefix(15))
        #expect(PhaseChange.measure(from: earlier, to: few, expectedChange: 0) == nil)
        #expect(PhaseChange.measure(from: earlier, to: ToneSet(paths: []), expectedChange: 0) == nil)
        #expect(PhaseChange.measure(from: earlier, to: later, expectedChange: .nan) == nil)
    }
}
