import EmulatorMath
import Foundation

/// The position of a still accessory that best explains a batch of ranges taken from known
/// phone positions: the local maximum-likelihood point near a start, and the curvature there
/// (a Laplace approximation of the posterior), for `DirectionFusion`'s move step.
///
/// Residuals e_i = ‖x − p_i‖ − r_i are taken robustly, ρ_i = asinh(e_i/σ) (quadratic within σ,
/// logarithmic beyond, so a multipath range metres long pulls little), and minimised by
/// Levenberg–Marquardt on the three coordinates (Marquardt's damping on the diagonal of JᵀJ,
/// a step kept only when it lowers Σρ²). A sideways sweep leaves one direction (the circle
/// around the sweep's axis) nearly unconstrained; the damping keeps the step there short, so
/// the fit stays on the start's side of that circle.
struct RangeBatchFit {
    var position: Vector3
    /// JᵀJ of the normalised residuals at `position`: the inverse covariance of the Laplace approximation.
    var information: Matrix3
    /// Σρ² at `position`.
    var cost: Double

    /// The fit from `start`; nil with fewer than four ranges or a start on a phone position.
    init?(positions: [Vector3], ranges: [Double], sigma: Double, start: Vector3, iterations: Int = 12) {
        guard positions.count >= 4, positions.count == ranges.count, sigma > 0 else { return nil }
        func evaluate(_ x: Vector3) -> (cost: Double, normal: Matrix3, gradient: Vector3)? {
            var cost = 0.0
            var normal = Matrix3.zero
            var gradient = Vector3.zero
            for i in positions.indices {
                let d = x - positions[i]
                let length = d.length
                guard length > 1e-9 else { return nil }
                let e = (length - ranges[i]) / sigma
                let rho = asinh(e)
                // ∂ρ/∂x = u/(σ·√(1 + e²)), u the unit vector from the phone.
                let j = d * (1 / (length * sigma * (1 + e * e).squareRoot()))
                cost += rho * rho
                normal += Matrix3.outer(j)
                gradient += j * rho
            }
            return (cost, normal, gradient)
        }
        guard var current = evaluate(start) else { return nil }
        var x = start
        var damping = 1e-3
        var settled = false
        for _ in 0..<iterations {
            var accepted = false
            for _ in 0..<8 {
                let n = current.normal
                let damped = n + Matrix3.diagonal(damping * n.m00, damping * n.m11, damping * n.m22)
                guard let inverse = damped.inverse else { damping *= 10; continue }
                let step = inverse * current.gradient * -1
                let trial = x + step
                if let t = evaluate(trial), t.cost < current.cost {
                    settled = current.cost - t.cost < 1e-9 * max(1, t.cost)
                    x = trial
                    current = t
                    damping = max(damping / 3, 1e-9)
                    accepted = true
                    break
                }
                damping *= 10
            }
            if !accepted || settled { break }
        }
        position = x
        information = current.normal
        cost = current.cost
    }

    /// L with L·Lᵀ = `m` (m symmetric positive definite), nil otherwise.
    static func cholesky(_ m: Matrix3) -> Matrix3? {
        let l00 = m.m00.squareRoot()
        guard l00 > 0, l00.isFinite else { return nil }
        let l10 = m.m10 / l00, l20 = m.m20 / l00
        let d1 = m.m11 - l10 * l10
        guard d1 > 0 else { return nil }
        let l11 = d1.squareRoot()
        let l21 = (m.m21 - l20 * l10) / l11
        let d2 = m.m22 - l20 * l20 - l21 * l21
        guard d2 > 0 else { return nil }
        return Matrix3(l00, 0, 0, l10, l11, 0, l20, l21, d2.squareRoot())
    }
}
