/// The IEEE 802.11n (TGn) indoor tapped-delay-line profiles B–E (V. Erceg et al., "TGn Channel
/// Models", IEEE 802.11-03/940r4, May 2004), measured at 2.4 and 5 GHz, as the Air's multipath
/// model.
///
/// What is implemented: each profile's taps on its 10 ns grid, with the average power of a tap
/// the sum (in linear units) of the powers its clusters give it in the document's tables; the
/// powers are normalised so the taps sum to 1. The combined power-delay profiles have RMS delay
/// spreads of 15.6 / 33.4 / 50.2 / 99.0 ns against the nominal 15 / 30 / 50 / 100 ns (C's
/// overlapping clusters make it a little wider than its label). Under line of sight (device
/// distance below the profile's breakpoint distance d_BP, or forced) the first tap is Ricean with
/// the profile's K-factor; every other tap, and the first one in NLOS, is Rayleigh.
///
/// Not implemented: the clusters' angular spreads and the antenna correlation they imply (the Air
/// draws the taps of each antenna pair independently), Doppler within a realization (a
/// realization is static until the Air redraws it), and the path-loss model beyond d_BP.
public enum TGnProfile: String, Sendable, Equatable, CaseIterable {
    /// Residential, 15 ns.
    case b = "B"
    /// Residential or small office, 30 ns.
    case c = "C"
    /// Typical office, 50 ns.
    case d = "D"
    /// Large office, 100 ns.
    case e = "E"

    /// The nominal RMS delay spread, seconds.
    public var nominalRMSDelaySpread: Double {
        switch self {
        case .b: 15e-9
        case .c: 30e-9
        case .d: 50e-9
        case .e: 100e-9
        }
    }

    /// Ricean K-factor of the first tap under line of sight, dB.
    public var losKFactorDB: Double {
        switch self {
        case .b, .c: 0
        case .d: 3
        case .e: 6
        }
    }

    /// Breakpoint distance d_BP in metres: line of sight below it, NLOS beyond.
    public var breakpointDistance: Double {
        switch self {
        case .b, .c: 5
        case .d: 10
        case .e: 20
        }
    }

    /// Tap delays in seconds.
    public var tapDelays: [Double] { delaysNanoseconds.map { Double($0) * 1e-9 } }

    /// Average tap powers (linear), summing to 1.
    public var tapPowers: [Double] {
        var p = [Double](repeating: 0, count: delaysNanoseconds.count)
        for cluster in clustersDB {
            for (k, db) in cluster where db.isFinite { p[k] += TGnProfile.linear(db) }
        }
        let total = p.reduce(0, +)
        return p.map { $0 / total }
    }

    /// RMS delay spread of the average power-delay profile, seconds.
    public var profileRMSDelaySpread: Double { TGnProfile.rmsDelaySpread(delays: tapDelays, powers: tapPowers) }

    /// RMS delay spread √(E[τ²] − E[τ]²) of taps with the given powers.
    public static func rmsDelaySpread(delays: [Double], powers: [Double]) -> Double {
        let total = powers.reduce(0, +)
        guard total > 0 else { return 0 }
        var m1 = 0.0, m2 = 0.0
        for (t, p) in zip(delays, powers) {
            m1 += t * p
            m2 += t * t * p
        }
        m1 /= total
        m2 /= total
        return max(0, m2 - m1 * m1).squareRoot()
    }

    private static func linear(_ db: Double) -> Double { _pow10(db / 10) }

    private var delaysNanoseconds: [Int] {
        switch self {
        case .b: [0, 10, 20, 30, 40, 50, 60, 70, 80]
        case .c: [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 110, 140, 170, 200]
        case .d: [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 110, 140, 170, 200, 240, 290, 340, 390]
        case .e: [0, 10, 20, 30, 50, 80, 110, 140, 180, 230, 280, 330, 380, 430, 490, 560, 640, 730]
        }
    }

    /// Each cluster as (tap index, power dB) for the taps it covers.
    private var clustersDB: [[(Int, Double)]] {
        func run(from first: Int, _ db: [Double]) -> [(Int, Double)] { db.enumerated().map { (first + $0.offset, $0.element) } }
        switch self {
        case .b:
            return [run(from: 0, [0, -5.4, -10.8, -16.2, -21.7]),
                    run(from: 2, [-3.2, -6.3, -9.4, -12.5, -15.6, -18.7, -21.8])]
        case .c:
            return [run(from: 0, [0, -2.1, -4.3, -6.5, -8.6, -10.8, -13.0, -15.2, -17.3, -19.5]),
                    run(from: 6, [-5.0, -7.2, -9.3, -11.5, -13.7, -15.8, -18.0, -20.2])]
        case .d:
            return [run(from: 0, [0, -0.9, -1.7, -2.6, -3.5, -4.3, -5.2, -6.1, -6.9, -7.8, -9.0, -11.1, -13.7, -16.3, -19.3, -23.2]),
                    run(from: 10, [-6.6, -9.5, -12.1, -14.7, -17.4, -21.9, -25.5]),
                    run(from: 14, [-18.8, -23.2, -25.2, -26.7])]
        case .e:
            return [run(from: 0, [-2.6, -3.0, -3.5, -3.9, -4.5, -5.6, -6.9, -8.2, -9.8, -11.7, -13.9, -16.1, -18.3, -20.5, -22.9]),
                    run(from: 4, [-1.8, -3.2, -4.5, -5.8, -7.1, -9.9, -10.3, -14.3, -14.7, -18.7, -19.9, -22.4]),
                    run(from: 8, [-7.9, -9.6, -14.2, -13.8, -18.6, -18.1, -22.8]),
                    run(from: 14, [-20.6, -20.5, -20.7, -24.6])]
        }
    }
}
