/// The lower bound on the standard deviation of a distance from round-trip timing: the
/// Cramér–Rao bound of each CS_SYNC's time of arrival, plus the errors a radio adds that no
/// estimator removes (timestamp jitter and quantization), averaged over the steps.
///
/// **Time of arrival of a known packet** (Van Trees; reference estimation.md, "RTT"): a receiver
/// that knows the whole CS_SYNC (preamble, access address, sounding or random sequence, trailer:
/// every symbol is known to it) estimates its arrival with variance at least
/// σ_τ² = 1 / (8π²·β²·E/N₀), where E/N₀ = N_symbols·γ (γ the per-symbol SNR) and β the signal's
/// RMS bandwidth. For GFSK with modulation index 0.5 the RMS bandwidth is the RMS instantaneous
/// frequency, β = 0.21·R at BT = 0.5 (LE 1M and 2M) and 0.24·R at BT = 2 (LE 2M 2BT), R the
/// symbol rate: computed numerically over 8,192 random symbols (Gaussian pulse, 64 samples a
/// symbol) for this type. At 20 dB and an AA-only CS_SYNC on 1M (44 symbols) σ_τ = 7.9 ns, or
/// 1.7 m of one-way distance a step.
///
/// **A step's round trip** has two arrivals (the initiator's and the reflector's) and two
/// timestamps, each with the radio's own jitter σ_j and a quantization to its resolution q
/// (uniform, variance q²/12): var(RTT) = 2·(σ_τ² + σ_j² + q²/12). **The distance** of N steps
/// is (c/2)·√(var(RTT)/N). The bound ignores multipath (which biases the arrival towards the
/// later paths: `Air` models it, the bound does not) and the boards' fixed delays (calibrated).
public enum RoundTripTimeBound {
    /// The CS_SYNC's PHY, which sets the symbol rate, the preamble and the pulse shape.
    public enum PHY: Sendable, Equatable {
        case le1M, le2M, le2M2BT

        /// Symbols a second.
        public var symbolRate: Double { self == .le1M ? 1e6 : 2e6 }
        /// Preamble length in symbols (Vol 6 Part B §2.1.1: 8 on 1M, 16 on 2M).
        public var preambleSymbols: Int { self == .le1M ? 8 : 16 }
        /// RMS bandwidth over the symbol rate (see the type's documentation).
        public var relativeRMSBandwidth: Double { self == .le2M2BT ? 0.24 : 0.21 }
        /// RMS bandwidth, Hz.
        public var rmsBandwidth: Double { relativeRMSBandwidth * symbolRate }
    }

    /// Symbols of a CS_SYNC with `sequenceBits` of sounding or random sequence: preamble,
    /// 32-bit access address, the sequence and the 4-bit trailer (Vol 6 Part H, CS_SYNC format).
    public static func symbols(phy: PHY, sequenceBits: Int) -> Int { phy.preambleSymbols + 32 + sequenceBits + 4 }

    /// σ of one arrival time, seconds, at per-symbol SNR `snrDB`.
    public static func arrivalStandardDeviation(snrDB: Double, phy: PHY, sequenceBits: Int) -> Double {
        let energy = Double(symbols(phy: phy, sequenceBits: sequenceBits)) * CramerRaoBound.linear(dB: snrDB)
        guard energy > 0 else { return .infinity }
        let beta = phy.rmsBandwidth
        return 1 / (2 * Double.pi * beta * (2 * energy).squareRoot())
    }

    /// σ of one step's round trip, seconds.
    public static func roundTripStandardDeviation(snrDB: Double, phy: PHY, sequenceBits: Int,
                                                  jitterSeconds: Double = 0, resolutionSeconds: Double = 0) -> Double {
        let arrival = arrivalStandardDeviation(snrDB: snrDB, phy: phy, sequenceBits: sequenceBits)
        let perTimestamp = arrival * arrival + jitterSeconds * jitterSeconds + resolutionSeconds * resolutionSeconds / 12
        return (2 * perTimestamp).squareRoot()
    }

    /// σ of the distance, metres, from `steps` steps.
    public static func distanceStandardDeviation(steps: Int, snrDB: Double, phy: PHY = .le1M, sequenceBits: Int = 0,
                                                 jitterSeconds: Double = 0, resolutionSeconds: Double = 0) -> Double {
        guard steps > 0 else { return .infinity }
        let rtt = roundTripStandardDeviation(snrDB: snrDB, phy: phy, sequenceBits: sequenceBits,
                                             jitterSeconds: jitterSeconds, resolutionSeconds: resolutionSeconds)
        return Ranging.speedOfLight / 2 * rtt / Double(steps).squareRoot()
    }
}
