import EmulatorMath
/// One draw of the multipath channel: for every antenna pair, complex tap gains at delays
/// relative to that pair's line-of-sight delay. The geometry supplies the line-of-sight delay, so
/// a realization stays valid while the devices move; the taps change only when the Air redraws
/// them (a new realization). The frequency response of pair p on frequency f is
/// H = e^{−j2πf·L_p/c} · Σ_l g_{p,l} e^{−j2πf·τ_l}.
public struct ChannelRealization: Sendable, Equatable {
    /// Tap delays in seconds after the line-of-sight delay, common to all pairs.
    public let delays: [Double]
    /// Tap gains, `tapCount` per pair, pair after pair.
    public let gains: [Complex]
    /// Number of antenna pairs (initiator antennas × reflector antennas).
    public let pairCount: Int

    public init(delays: [Double], gains: [Complex], pairCount: Int) {
        precondition(gains.count == delays.count * pairCount)
        self.delays = delays
        self.gains = gains
        self.pairCount = pairCount
    }

    public var tapCount: Int { delays.count }

    @inline(__always)
    public func gain(pair: Int, tap: Int) -> Complex { gains[pair * delays.count + tap] }

    /// Draws a realization of `model` for `pairs` antenna pairs at device separation `distance`
    /// (which decides TGn line of sight when the model leaves it open).
    public static func draw(_ model: AirChannelModel, pairs: Int, distance: Double, using rng: inout SeededGenerator) -> ChannelRealization {
        switch model {
        case .freeSpace:
            return ChannelRealization(delays: [0], gains: Array(repeating: .one, count: pairs), pairCount: pairs)
        case .twoRay(let excess, let amplitude, let phase):
            // One reflector, seen alike by every antenna pair: one phase per realization.
            let phi = phase ?? rng.phase()
            let reflection = Complex(phase: phi) * amplitude
            var gains: [Complex] = []
            gains.reserveCapacity(2 * pairs)
            for _ in 0..<pairs { gains += [.one, reflection] }
            return ChannelRealization(delays: [0, excess / Air.speedOfLight], gains: gains, pairCount: pairs)
        case .tgn(let profile, let lineOfSight):
            let powers = profile.tapPowers
            let los = lineOfSight ?? (distance < profile.breakpointDistance)
            let k = los ? _pow10(profile.losKFactorDB / 10) : 0
            var gains: [Complex] = []
            gains.reserveCapacity(powers.count * pairs)
            for _ in 0..<pairs {
                for (l, p) in powers.enumerated() {
                    if l == 0 && k > 0 {
                        // Ricean: the fixed part is the geometric line of sight (phase 0 against
                        // e^{−j2πf·L/c}); the rest scatters.
                        let fixed = Complex((p * k / (k + 1)).squareRoot(), 0)
                        gains.append(fixed + rng.complexGaussian(variance: p / (k + 1)))
                    } else {
                        gains.append(rng.complexGaussian(variance: p))
                    }
                }
            }
            return ChannelRealization(delays: profile.tapDelays, gains: gains, pairCount: pairs)
        }
    }

    /// The pair's response on frequency `frequency` (Hz) for a line-of-sight path of
    /// `lineOfSightLength` metres.
    public func response(pair: Int, frequency: Double, lineOfSightLength: Double) -> Complex {
        var sum = Complex.zero
        for l in 0..<delays.count {
            sum += gain(pair: pair, tap: l) * Complex(phase: -2 * Double.pi * frequency * delays[l])
        }
        return sum * Complex(phase: -2 * Double.pi * frequency * lineOfSightLength / Air.speedOfLight)
    }

    /// A two-ray realization as `TwoPathBound` models it: the reflection's excess length in
    /// metres and its complex amplitude relative to the direct path on CS channel 0 (2402 MHz),
    /// H_k ∝ 1 + r·e^{−j2π·k·1 MHz·Δ/c}; nil for any other realization (one tap, or several).
    public func twoRay(pair: Int = 0) -> (excess: Double, reflection: Complex)? {
        guard delays.count == 2, delays[0] == 0, pair < pairCount else { return nil }
        let direct = gain(pair: pair, tap: 0)
        guard direct.magnitudeSquared > 0 else { return nil }
        let relative = gain(pair: pair, tap: 1) * (1 / direct.magnitudeSquared) * direct.conjugate
        return (delays[1] * Air.speedOfLight, relative * Complex(phase: -2 * Double.pi * 2402e6 * delays[1]))
    }

    /// RMS delay spread of this realization's impulse response for `pair`, seconds.
    public func rmsDelaySpread(pair: Int) -> Double {
        TGnProfile.rmsDelaySpread(delays: delays, powers: (0..<delays.count).map { gain(pair: pair, tap: $0).magnitudeSquared })
    }
}
