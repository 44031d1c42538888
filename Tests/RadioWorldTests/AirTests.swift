@testable import EmulatorMath
import Foundation
@testable import RadioWorld
@testable import ReflectorFirmware
import Testing

/// The Air under the real step engines: determinism, the round-trip phase of PBR, noise,
/// frequency offsets and the two-ray channel.
struct AirTests {
    /// Runs mode-0 steps then mode-2 steps over several channels; returns every reported step.
    static func run(_ scenario: AirScenario, inlinePCT: Bool = false, aci: UInt8 = 7) -> [SubeventStep] {
        var link = AirLink(scenario, aci: aci, inlinePCT: inlinePCT)
        var out: [SubeventStep] = []
        var t: UInt64 = 10_000
        for k in 0..<3 {
            let (i, r) = link.exchange(AirLink.step(mode: .mode0, channel: UInt8(10 + k)), at: t)
            out += [i, r]
            t += 1_000
        }
        for (k, ch) in AirLink.csChannels.prefix(20).enumerated() {
            let (i, r) = link.exchange(AirLink.step(mode: .mode2, channel: ch, permutation: UInt8(k % 24)), at: t)
            out += [i, r]
            t += 1_000
        }
        return out
    }

    static var noisy: AirScenario {
        AirScenario(seed: 42, geometry: AirGeometry(distance: 4.2), channelModel: .tgn(.d, lineOfSight: nil), snrDB: 20,
                    toneDropProbability: 0.05, syncDropProbability: 0.1)
    }

    /// Same seed, same receptions bit for bit; another seed, different ones.
    @Test func sameSeedSameRun() {
        let a = Self.run(Self.noisy)
        let b = Self.run(Self.noisy)
        #expect(a == b)
        var other = Self.noisy
        other.seed = 43
        #expect(Self.run(other) != a)
    }

    /// Noise-free free space: the round-trip phase (initiator × reflector PCT without inline PCT,
    /// the initiator's PCT alone with it) is −4π·f·L/c for every antenna pair and permutation,
    /// whatever the per-step LO phases.
    @Test(arguments: [UInt8(0), 3, 6, 7], [false, true])
    func roundTripPhaseIsTwiceThePath(aci: UInt8, inlinePCT: Bool) {
        var link = AirLink(.ideal(distance: 3.1, seed: UInt64(aci) + 7), aci: aci, inlinePCT: inlinePCT)
        let n = link.antennaPaths
        var t: UInt64 = 5_000
        var checked = 0
        for permutation in 0..<UInt8(AntennaPermutation.count(antennaPaths: n)) {
            for ch in [UInt8(2), 40, 76] {
                let s = AirLink.step(mode: .mode2, channel: ch, permutation: permutation)
                let (i, r) = link.exchange(s, at: t)
                t += 700
                let it = AirMath.tones(i)!, rt = AirMath.tones(r)!
                let f = Air.frequency(channel: ch)
                for slot in 0...n {
                    let ap = link.path(permutation: permutation, slot: slot)
                    let length = link.air.scenario.geometry.pathLength(initiatorAntenna: ap.initiatorAntenna, reflectorAntenna: ap.reflectorAntenna, at: 0)
                    let expected = -4 * Double.pi * f * length / Air.speedOfLight
                    let measured = inlinePCT ? AirMath.phase(it[slot].pct) : AirMath.phase(it[slot].pct) + AirMath.phase(rt[slot].pct)
                    // 12-bit quantisation of a 1000-amplitude tone: a few milliradians.
                    #expect(abs(AirMath.wrap(measured - expected)) < 0.005, "ACI \(aci) perm \(permutation) ch \(ch) slot \(slot)")
                    #expect(it[slot].quality.quality == .high && rt[slot].quality.quality == .high)
                    checked += 1
                }
            }
        }
        #expect(checked == 3 * AntennaPermutation.count(antennaPaths: n) * (n + 1))
        // The LO phases really are random per step: the reflector's PCTs alone do not repeat.
        let pcts = Set((0..<5).map { k -> UInt32 in
            let s = AirLink.step(mode: .mode2, channel: 40)
            let (_, r) = link.exchange(s, at: t + UInt64(k) * 700)
            return AirMath.tones(r)![0].pct.packed
        })
        #expect(pcts.count == 5)
    }

    /// The noise on received tones has the configured SNR: the same seed with and without noise
    /// gives the same LO phases (separate random streams), so the difference is the noise.
    @Test(arguments: [10.0, 20.0, 30.0])
    func noisePowerMatchesSNR(snr: Double) {
        var noisy = AirScenario(seed: 9, snrDB: snr, reflectorCrystalPPM: 0)
        noisy.geometry = AirGeometry(distance: 2.5)
        var clean = noisy
        clean.snrDB = .infinity
        let a = Air(scenario: noisy), b = Air(scenario: clean)
        var ra = a.radio(.reflector), rb = b.radio(.reflector)
        var ia = a.radio(.initiator), ib = b.radio(.initiator)
        var noise = 0.0, estimate = 0.0
        let count = 4000
        for k in 0..<count {
            let t = UInt64(1_000 + k * 500)
            let ch = AirLink.csChannels[k % 72]
            ia.tune(channel: ch, at: t); ra.tune(channel: ch, at: t)
            ib.tune(channel: ch, at: t); rb.tune(channel: ch, at: t)
            ia.transmitTone(rotation: .one, at: t + 20, duration: 10)
            ib.transmitTone(rotation: .one, at: t + 20, duration: 10)
            let y = ra.receiveTone(at: t + 20, duration: 10)
            let x = rb.receiveTone(at: t + 20, duration: 10)
            let di = Double(y.iq.i - x.iq.i), dq = Double(y.iq.q - x.iq.q)
            noise += di * di + dq * dq
            estimate += Double(y.snrDB)
        }
        let measured = 10 * log10(1000.0 * 1000.0 / (noise / Double(count)))
        #expect(abs(measured - snr) < 0.5, "measured \(measured) dB for \(snr) dB")
        // The radio's own estimate scatters around the truth (its mean sits slightly below: log of a noisy ratio).
        #expect(abs(estimate / Double(count) - snr) < (snr < 15 ? 1.5 : 0.5), "estimate \(estimate / Double(count))")
    }

    /// Frequency offset, uncompensated: the round trip carries 2π·f·ε·ΔT (ε = ppm_R − ppm_I, ΔT
    /// the time between the two tones), as reference §2.5 and §3.1 predict.
    @Test(arguments: [false, true])
    func uncompensatedOffsetAddsPredictedPhase(inlinePCT: Bool) {
        var scenario = AirScenario.ideal(distance: 1.7)
        scenario.reflectorCrystalPPM = 12
        var link = AirLink(scenario, aci: 0, inlinePCT: inlinePCT)
        let tl = link.timeline(.mode2)
        let deltaT = Double(tl.reflectorTones - tl.initiatorTones)  // µs, same slot in each group
        let geometry = scenario.geometry
        let length = geometry.pathLength(initiatorAntenna: 1, reflectorAntenna: 1, at: 0)
        for (k, ch) in AirLink.csChannels.enumerated() {
            let (i, r) = link.exchange(AirLink.step(mode: .mode2, channel: ch), at: UInt64(10_000 + k * 600))
            let f = Air.frequency(channel: ch)
            let it = AirMath.tones(i)!, rt = AirMath.tones(r)!
            let measured = inlinePCT ? AirMath.phase(it[0].pct) : AirMath.phase(it[0].pct) + AirMath.phase(rt[0].pct)
            let expected = -4 * Double.pi * f * length / Air.speedOfLight + 2 * Double.pi * f * 12e-6 * deltaT * 1e-6
            #expect(abs(AirMath.wrap(measured - expected)) < 0.01, "channel \(ch)")
        }
    }

    /// Mode 0 measures the offset (Measured_Freq_Offset ≈ 12 ppm, σ ≈ 0.05 ppm at 20 dB);
    /// compensating with it leaves a residual within the measurement noise.
    @Test func mode0MeasuresAndCompensationRemovesTheOffset() throws {
        var scenario = AirScenario(seed: 5, snrDB: 20)
        scenario.reflectorCrystalPPM = 12
        var link = AirLink(scenario, aci: 0)
        var offsets: [Double] = []
        for k in 0..<200 {
            let (i, _) = link.exchange(AirLink.step(mode: .mode0, channel: AirLink.csChannels[k % 72]), at: UInt64(10_000 + k * 1_000))
            guard case .mode0(let m) = i.data else { Issue.record("not mode 0"); return }
            offsets.append(try #require(AirMath.ppm(m.measuredFrequencyOffset)))
        }
        let mean = offsets.reduce(0, +) / Double(offsets.count)
        let sd = (offsets.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(offsets.count - 1)).squareRoot()
        #expect(abs(mean - 12) < 0.02, "mean \(mean)")
        #expect(sd > 0.03 && sd < 0.08, "σ \(sd)")
        // The initiator compensates with the first subevent's three measurements.
        let estimate = offsets.prefix(3).reduce(0, +) / 3
        link.initiatorRadio.compensateFrequency(ppm: Float(estimate))
        let residual = link.air.effectivePPM(.reflector) - link.air.effectivePPM(.initiator)
        #expect(abs(residual) < 4 * 0.05 / 3.0.squareRoot() + 0.01, "residual \(residual)")
        // ... and the next measurement reads the residual.
        let (i, _) = link.exchange(AirLink.step(mode: .mode0), at: 900_000)
        guard case .mode0(let m) = i.data else { return }
        #expect(abs(try #require(AirMath.ppm(m.measuredFrequencyOffset)) - residual) < 0.3)
    }

    /// A residual offset ε after compensation biases the phase slope by c·ε·ΔT/2 (reference §2.5).
    @Test func residualOffsetBiasesRangeByCEpsilonDeltaTOverTwo() {
        var scenario = AirScenario.ideal(distance: 2.0)
        scenario.reflectorCrystalPPM = 12
        var link = AirLink(scenario, aci: 0, inlinePCT: true)
        link.initiatorRadio.compensateFrequency(ppm: 11)  // residual ε = 1 ppm
        let tl = link.timeline(.mode2)
        let deltaT = Double(tl.reflectorTones - tl.initiatorTones) * 1e-6
        let length = scenario.geometry.pathLength(initiatorAntenna: 1, reflectorAntenna: 1, at: 0)
        // Least-squares slope of the phase error against frequency.
        var xs: [Double] = [], ys: [Double] = []
        for (k, ch) in AirLink.csChannels.enumerated() {
            let (i, _) = link.exchange(AirLink.step(mode: .mode2, channel: ch), at: UInt64(10_000 + k * 600))
            let f = Air.frequency(channel: ch)
            xs.append(f)
            ys.append(AirMath.wrap(AirMath.phase(AirMath.tones(i)![0].pct) + 4 * Double.pi * f * length / Air.speedOfLight))
        }
        let mx = xs.reduce(0, +) / 72, my = ys.reduce(0, +) / 72
        var sxy = 0.0, sxx = 0.0
        for (x, y) in zip(xs, ys) {
            sxy += (x - mx) * (y - my)
            sxx += (x - mx) * (x - mx)
        }
        let slope = sxy / sxx
        let bias = -slope * Air.speedOfLight / (4 * Double.pi)
        let predicted = -Air.speedOfLight * 1e-6 * deltaT / 2
        #expect(abs(bias - predicted) < 0.05 * abs(predicted), "bias \(bias) m, predicted \(predicted) m")
    }

    /// Two-ray: the round-trip channel the engines measure is the analytic H².
    @Test(arguments: [false, true])
    func twoRayRoundTripIsHSquared(inlinePCT: Bool) {
        var scenario = AirScenario.ideal(distance: 3.0)
        scenario.geometry = AirGeometry(distance: 3.0, initiatorAntennas: [.origin], reflectorAntennas: [.origin])
        scenario.channelModel = .twoRay(excessPath: 1.5, amplitude: 0.6, phase: 2.0)
        var link = AirLink(scenario, aci: 0, inlinePCT: inlinePCT)
        for (k, ch) in AirLink.csChannels.enumerated() {
            let (i, r) = link.exchange(AirLink.step(mode: .mode2, channel: ch), at: UInt64(10_000 + k * 600))
            let f = Air.frequency(channel: ch)
            let w = -2 * Double.pi * f / Air.speedOfLight
            let h = Complex(phase: w * 3.0) * (Complex.one + Complex(phase: 2.0) * Complex(phase: w * 1.5) * 0.6)
            let h2 = h * h
            let pi = AirMath.complex(AirMath.tones(i)![0].pct), pr = AirMath.complex(AirMath.tones(r)![0].pct)
            // Without inline PCT: PCT_I·PCT_R = A²·H². With it: PCT_I = A·H·e^{j∠H} = A·H²/|H|.
            let got = inlinePCT ? pi * (h.magnitude / 1000) : pi * pr * (1.0 / 1e6)
            let want = h2
            #expect((got - want).magnitude < 0.003 * max(1, want.magnitude), "channel \(ch): \(got) vs \(want)")
        }
    }

    /// Window averaging off: a 12 ppm offset over a 40 µs window keeps the tone's full amplitude;
    /// on, it shrinks by |sinc(Δf·T)| (≈ 0.14), the phase of the round trip intact either way.
    @Test(arguments: [false, true])
    func windowAveragingLoss(averaging: Bool) {
        var s = AirScenario.ideal(distance: 2)
        s.reflectorCrystalPPM = 12
        s.windowAveraging = averaging
        let air = Air(scenario: s)
        var i = air.radio(.initiator), r = air.radio(.reflector)
        i.tune(channel: 40, at: 1_000)
        r.tune(channel: 40, at: 1_000)
        i.transmitTone(rotation: .one, at: 1_010, duration: 40)
        let y = r.receiveTone(at: 1_010, duration: 40)
        let x = Double.pi * Air.frequency(channel: 40) * 12e-6 * 40e-6
        let expected = averaging ? 1000 * abs(sin(x) / x) : 1000
        #expect(abs(Double(y.iq.magnitude) - expected) < 0.5, "\(y.iq.magnitude) vs \(expected)")
    }
}
