import EmulatorMath
import Foundation
import RangingEstimation
import ReflectorFirmware

/// Where a receiver's correlator puts a CS_SYNC's arrival when several paths arrive: at the peak
/// of |Σ_l h_l·R(τ − τ_l)|, R the GFSK autocorrelation and h_l each path's baseband gain on the
/// channel's frequency. Paths closer than R's width (about 1/(2πβ) ≈ 0.76 µs on LE 1M) merge into
/// one peak that sits after the first path: the first-path bias that makes RTT read long in
/// multipath, worse when the direct path is weak (non-line-of-sight TGn draws put the peak on a
/// later tap altogether). Near its peak R is taken as the Gaussian of the same curvature,
/// R(τ) = e^{−2π²β²τ²} (R''(0) = −4π²β², β the RMS bandwidth, `RoundTripTimeBound.PHY`).
enum SyncArrival {
    /// The peak's delay after the line-of-sight delay, seconds, for taps at `delays` with
    /// baseband gains `gains[base + l]·phasors[l]`; 0 for a single path at the line of sight.
    static func bias(delays: [Double], gains: [Complex], base: Int, phasors: [Complex], rmsBandwidth: Double) -> Double {
        let taps = delays.count
        if taps == 1 && delays[0] == 0 { return 0 }
        let a = 2 * Double.pi * Double.pi * rmsBandwidth * rmsBandwidth
        func power(_ tau: Double) -> Double {
            var sum = Complex.zero
            for l in 0..<taps {
                let x = tau - delays[l]
                sum += gains[base + l] * phasors[l] * exp(-a * x * x)
            }
            return sum.magnitudeSquared
        }
        // A 25 ns grid over the taps (the peak is a smooth hill 0.76 µs wide), then a
        // golden-section search in the best cell and its neighbours.
        let step = 25e-9
        let last = delays.max() ?? 0
        var bestTau = -200e-9, bestPower = power(bestTau)
        var tau = bestTau + step
        while tau <= last + 200e-9 {
            let p = power(tau)
            if p > bestPower { (bestTau, bestPower) = (tau, p) }
            tau += step
        }
        var lo = bestTau - step, hi = bestTau + step
        let g = 0.618_033_988_749_895
        var x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo)
        var p1 = power(x1), p2 = power(x2)
        for _ in 0..<30 {
            if p1 > p2 {
                (hi, x2, p2) = (x2, x1, p1)
                x1 = hi - g * (hi - lo)
                p1 = power(x1)
            } else {
                (lo, x1, p1) = (x1, x2, p2)
                x2 = lo + g * (hi - lo)
                p2 = power(x2)
            }
        }
        return (lo + hi) / 2
    }
}

extension RoundTripTimeBound.PHY {
    /// The bound's PHY for a configuration's CS_SYNC PHY.
    public init(_ phy: CSSyncPHY) {
        switch phy {
        case .le1M: self = .le1M
        case .le2M: self = .le2M
        case .le2M2BT: self = .le2M2BT
        }
    }
}
