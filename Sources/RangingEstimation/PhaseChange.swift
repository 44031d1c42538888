import EmulatorMath

/// How far the distance changed between two procedures, read from the carrier phase: known
/// to a fraction of a millimetre of radio noise, but only modulo half a wavelength (6.1 cm).
///
/// **Why it works.** A round-trip tone's phase is −4π·f·d/c plus what the devices and the
/// multipath add (`ToneSet`). The devices' part is the same every procedure (the LO phases
/// cancel in the round trip; what is left is each radio's fixed delay per channel), so the
/// product of a later tone with the conjugate of an earlier one on the same channel and
/// antenna path is e^{−j4π·f·Δd/c}: the distance's change alone. Two real nRF54L15 boards
/// (`data/field/nrf54l15-waves`, still) keep it: over 62 procedures the change from
/// one to the next is coherent across the 72 channels (0.96 or more) and under 0.7 rad, and
/// the common phase stays within ±0.4 rad of the first procedure's for 41 procedures, then
/// drifts by up to a radian (a centimetre: the scene, or the boards' temperature).
///
/// **How.** The products are summed over channels and paths after turning each by
/// e^{+j4π·(f − f₀)·Δd̂/c}, with Δd̂ the caller's expectation of the change (from where it
/// believes the accessory is, or from the two procedures' distances) and f₀ the products'
/// weighted mean frequency: what is left is the phase at f₀, −4π·f₀·Δd/c modulo 2π, and an
/// error in Δd̂ of δ only shrinks the sum (by the spread of 4π·(f − f₀)·δ/c over the band:
/// 10 cm costs a few per cent), it does not move its phase. A direction filter compares
/// `phase` with −`wavenumber`·Δd for each position it holds, wrapped.
public struct PhaseChange: Sendable, Equatable {
    /// The phase of the change at `frequency`, radians in (−π, π]: −`wavenumber`·Δd modulo 2π.
    public var phase: Double
    /// 4π·f₀/c, radians per metre of distance change (about 102 rad/m).
    public var wavenumber: Double
    /// f₀, Hz.
    public var frequency: Double
    /// |Σ products| / Σ |products|: 1 when every channel agrees (still channel, high SNR);
    /// low when the scene changed between the procedures or Δd̂ was far off.
    public var coherence: Double
    /// Channel and path pairs that went into the sum.
    public var toneCount: Int

    /// The least tone pairs a change is measured from.
    public static let minimumTones = 16

    /// The change from `earlier` to `later` (tones of the same antenna paths), expecting about
    /// `expectedChange` metres; nil with fewer than `minimumTones` good tones on channels and
    /// paths both hold. A channel sounded more than once in a procedure counts its tones' sum.
    public static func measure(from earlier: ToneSet, to later: ToneSet, expectedChange: Double) -> PhaseChange? {
        let paths = min(earlier.paths.count, later.paths.count)
        guard paths > 0, expectedChange.isFinite else { return nil }
        var before = [Complex](repeating: Complex(0), count: Ranging.channelCount)
        var after = before
        var products: [(frequency: Double, value: Complex)] = []
        products.reserveCapacity(paths * Ranging.allowedChannels.count)
        for p in 0..<paths {
            for k in before.indices {
                before[k] = Complex(0)
                after[k] = Complex(0)
            }
            for t in earlier.paths[p] where t.isGood && Int(t.channel) < Ranging.channelCount { before[Int(t.channel)] += t.value }
            for t in later.paths[p] where t.isGood && Int(t.channel) < Ranging.channelCount { after[Int(t.channel)] += t.value }
            for k in before.indices {
                let product = after[k] * before[k].conjugate
                if product.magnitudeSquared > 0 { products.append((Ranging.frequency(channel: UInt8(k)), product)) }
            }
        }
        guard products.count >= minimumTones else { return nil }
        var weightSum = 0.0, frequencySum = 0.0
        for p in products {
            let w = p.value.magnitude
            weightSum += w
            frequencySum += w * p.frequency
        }
        guard weightSum > 0, weightSum.isFinite else { return nil }
        let f0 = frequencySum / weightSum
        let slope = 4 * Double.pi * expectedChange / Ranging.speedOfLight
        var sum = Complex(0)
        for p in products { sum += p.value * Complex(phase: slope * (p.frequency - f0)) }
        return PhaseChange(phase: sum.phase, wavenumber: 4 * Double.pi * f0 / Ranging.speedOfLight, frequency: f0,
                           coherence: sum.magnitude / weightSum, toneCount: products.count)
    }
}
