import EmulatorMath
import Foundation

/// The Cramér–Rao bound on the direction a run's measurements allow: what an efficient unbiased
/// estimator of a still accessory's position could do at each update with every range and
/// carrier-phase change measured so far, taken from where the phone truly was (camera drift
/// ignored: the bound is optimistic) with Gaussian noise of the run's own spread. A direction
/// error near this bound is the data's limit, not the fusion's; well under it means the
/// fusion's prior (the camera cone, the still hint) is doing the work.
///
/// Ranges r_i = ‖x − p_i‖ + n_i, n_i ~ N(0, σ²) give the position's Fisher information
/// F = Σ u_i u_iᵀ / σ² (u_i the unit vector from phone position p_i to the accessory x). A
/// carrier-phase change between the phone at p_s and at p_t reads ‖x − p_t‖ − ‖x − p_s‖ with
/// noise σ_φ and adds (u_t − u_s)(u_t − u_s)ᵀ / σ_φ²; its ambiguity (one every 6.1 cm) is
/// left out, as a local bound does, and so is the correlation of two changes that share a
/// procedure (optimistic again). σ_φ is the run's own: the changes' robust spread about what
/// the true accessory position gives from the poses the phone believed, so the camera's pose
/// noise, which is most of it, counts. From
/// the phone at p, the direction's error is δx projected across v = x − p and divided by ‖v‖:
/// a 2-D Gaussian with covariance Π F⁻¹ Π / ‖v‖² (Π = I − v̂v̂ᵀ), whose magnitude's median is
/// the figure per update.
public struct DirectionBound: Sendable, Equatable {
    /// The range noise the bound assumes, metres: the robust spread (1.4826 × the median
    /// absolute deviation) of the run's raw distances about the true ones, so a few multipath
    /// outliers do not loosen it.
    public var rangeSigma: Double
    /// The carrier-phase changes' noise the bound assumes, metres of distance (nil: the run
    /// fused fewer than ten).
    public var phaseSigma: Double?
    /// Per update (in order), the median angular error (radians) of an efficient estimator
    /// with the ranges up to and including it; nil until the ranges fix a position.
    public var medianErrors: [Double?]

    /// The bound for a run; nil when the accessory moves (a moving point has no one position to
    /// bound) or fewer than ten updates carry a raw distance.
    public init?(_ updates: [NearbyUpdateRecord]) {
        guard let x = updates.first?.accessoryPosition,
              updates.allSatisfy({ ($0.accessoryPosition - x).length < 1e-3 }) else { return nil }
        let errors = updates.compactMap { u in u.rawDistance.map { $0 - u.trueDistance } }
        guard errors.count >= 10, let median = Quantile.of(errors, 0.5),
              let deviation = Quantile.of(errors.map { abs($0 - median) }, 0.5), deviation > 0 else { return nil }
        let sigma = 1.4826 * deviation
        var information = Matrix3.zero
        var ranges = 0
        rangeSigma = sigma
        let phaseErrors = updates.compactMap { u in
            u.phase.map { p in
                let change = (x - p.believedPosition).length - (x - p.observation.from).length
                return remainder(p.observation.phase + p.observation.wavenumber * change, 2 * Double.pi) / p.observation.wavenumber
            }
        }
        var phaseSigma: Double?
        if phaseErrors.count >= 10, let median = Quantile.of(phaseErrors, 0.5),
           let deviation = Quantile.of(phaseErrors.map { abs($0 - median) }, 0.5), deviation > 0 {
            phaseSigma = 1.4826 * deviation
        }
        self.phaseSigma = phaseSigma
        medianErrors = updates.map { u in
            let p = u.phonePose.position
            if u.rawDistance != nil {
                information += Matrix3.outer((x - p).normalized) * (1 / (sigma * sigma))
                ranges += 1
            }
            if let phase = u.phase, let s = phaseSigma {
                information += Matrix3.outer((x - p).normalized - (x - phase.truePositionBefore).normalized) * (1 / (s * s))
            }
            guard ranges >= 3, let covariance = information.inverse else { return nil }
            return Self.medianAngularError(covariance: covariance, from: p, to: x)
        }
    }

    /// The median over `updates` of the bound, taking only those where `include` holds (the
    /// updates that reported a direction, to compare with their errors' median).
    public func median(over updates: [NearbyUpdateRecord], where include: (NearbyUpdateRecord) -> Bool) -> Double? {
        Quantile.of(zip(updates, medianErrors).compactMap { include($0.0) ? $0.1 : nil }, 0.5)
    }

    /// The median of ‖δθ‖ for the direction from `p` to `x` when x's error has `covariance`.
    static func medianAngularError(covariance: Matrix3, from p: Vector3, to x: Vector3) -> Double? {
        let v = x - p
        let length = v.length
        guard length > 1e-6 else { return nil }
        let w = v * (1 / length)
        // Two unit vectors across w: the plane the direction's error lies in.
        let helper = abs(w.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
        let e1 = (helper - w * helper.dot(w)).normalized
        let e2 = Vector3(w.y * e1.z - w.z * e1.y, w.z * e1.x - w.x * e1.z, w.x * e1.y - w.y * e1.x)
        let scale = 1 / (length * length)
        let a = covariance.quadraticForm(e1) * scale, c = covariance.quadraticForm(e2) * scale
        let b = e1.dot(covariance * e2) * scale
        // The 2×2 covariance's eigenvalues.
        let mean = (a + c) / 2, radius = (((a - c) / 2) * ((a - c) / 2) + b * b).squareRoot()
        let major = mean + radius, minor = max(0, mean - radius)
        guard major > 0, major.isFinite else { return nil }
        return medianNorm(major, minor)
    }

    /// The median of ‖z‖ for z ~ N(0, diag(λ₁, λ₂)): by bisection on
    /// P(‖z‖ ≤ m) = 1 − (1/2π) ∫ exp(−m² / (2(λ₁cos²φ + λ₂sin²φ))) dφ, the integral by the
    /// midpoint rule (exponentially accurate for a smooth periodic integrand).
    static func medianNorm(_ lambda1: Double, _ lambda2: Double) -> Double {
        let points = 64
        func probabilityWithin(_ m: Double) -> Double {
            var sum = 0.0
            for k in 0..<points {
                let phi = (Double(k) + 0.5) * (Double.pi / 2) / Double(points)
                let variance = lambda1 * cos(phi) * cos(phi) + lambda2 * sin(phi) * sin(phi)
                sum += variance > 0 ? exp(-m * m / (2 * variance)) : 0
            }
            return 1 - sum / Double(points)
        }
        var lo = 0.0, hi = 4 * (lambda1 + lambda2).squareRoot()
        for _ in 0..<100 {
            let mid = (lo + hi) / 2
            if probabilityWithin(mid) < 0.5 { lo = mid } else { hi = mid }
            if hi - lo <= 1e-12 * hi { break }
        }
        return (lo + hi) / 2
    }
}
