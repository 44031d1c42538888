/// Levenberg–Marquardt for small dense nonlinear least squares: minimises ‖r(θ)‖² over n ≤ 32
/// real parameters. Marquardt's scaling (damping on the diagonal of JᵀJ), a step accepted only
/// when it lowers the sum of squares. All storage is the caller's or the stack's.
///
/// Two ways in: the problem fills the normal equations JᵀJ and Jᵀr itself (so a model whose
/// Jacobian is sparse, such as many antenna paths sharing a few positions, accumulates only
/// its non-zero products), or it fills residuals and a dense Jacobian and the routine forms
/// them.
package enum LevenbergMarquardt {
    package struct Result {
        /// ‖r‖² at the solution.
        package var cost: Double
        /// Iterations taken.
        package var iterations: Int
    }

    /// `evaluate(θ, normal, gradient)` returns ‖r(θ)‖², or nil when θ is outside the model's
    /// domain; when `normal` and `gradient` are non-nil it also fills JᵀJ (n×n, both triangles)
    /// and Jᵀr (n). `theta` (n values) is updated in place; `normal` is left holding JᵀJ at the
    /// solution, for the caller's covariance. Stops when a step lowers the cost by less than
    /// `tolerance` of it or moves no parameter by more than `tolerance` of the largest.
    package static func minimize(_ theta: UnsafeMutablePointer<Double>, n: Int, iterations: Int = 30, tolerance: Double = 1e-10,
                                 normal: UnsafeMutablePointer<Double>,
                                 normalEquations evaluate: (UnsafePointer<Double>, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?) -> Double?) -> Result? {
        precondition(n <= 32)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 32 * 32 + 3 * 32) { buffer in
            let work = buffer.baseAddress!
            let grad = work + 32 * 32, step = grad + 32, trial = step + 32
            guard var cost = evaluate(UnsafePointer(theta), normal, grad) else { return nil }
            var mu = 1e-3
            var taken = 0
            outer: for iteration in 0..<iterations {
                taken = iteration + 1
                for _ in 0..<8 {
                    for k in 0..<(n * n) { work[k] = normal[k] }
                    for a in 0..<n {
                        work[a * n + a] += mu * max(normal[a * n + a], 1e-30)
                        step[a] = grad[a]
                    }
                    guard SmallDenseSolver.solve(work, step, n: n) else { mu *= 10; continue }
                    var size = 0.0, scale = 0.0
                    for a in 0..<n {
                        trial[a] = theta[a] - step[a]
                        size = max(size, abs(step[a]))
                        scale = max(scale, abs(theta[a]))
                    }
                    guard let trialCost = evaluate(UnsafePointer(trial), nil, nil), trialCost < cost else { mu *= 10; continue }
                    for a in 0..<n { theta[a] = trial[a] }
                    let converged = cost - trialCost <= tolerance * cost || size <= tolerance * max(1, scale)
                    mu = max(mu / 3, 1e-12)
                    // JᵀJ at the accepted point (also when converged: the caller's covariance).
                    cost = evaluate(UnsafePointer(theta), normal, grad) ?? trialCost
                    if converged { break outer }
                    continue outer
                }
                break
            }
            return Result(cost: cost, iterations: taken)
        }
    }

    /// The dense form: `evaluate(θ, r, J)` fills r (m values) and, when J is non-nil, J (m×n,
    /// row-major); it returns false when θ is outside the model's domain.
    package static func minimize(_ theta: UnsafeMutablePointer<Double>, n: Int, m: Int, iterations: Int = 30, tolerance: Double = 1e-10,
                                 normal: UnsafeMutablePointer<Double>,
                                 _ evaluate: (UnsafePointer<Double>, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>?) -> Bool) -> Result? {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: m * n + m) { buffer in
            let jac = buffer.baseAddress!, res = jac + m * n
            return minimize(theta, n: n, iterations: iterations, tolerance: tolerance, normal: normal) { t, normal, grad in
                guard evaluate(t, res, normal == nil ? nil : jac) else { return nil }
                var cost = 0.0
                for i in 0..<m { cost += res[i] * res[i] }
                guard let normal, let grad else { return cost }
                for a in 0..<n {
                    var g = 0.0
                    for i in 0..<m { g += jac[i * n + a] * res[i] }
                    grad[a] = g
                    for b in a..<n {
                        var s = 0.0
                        for i in 0..<m { s += jac[i * n + a] * jac[i * n + b] }
                        normal[a * n + b] = s
                        normal[b * n + a] = s
                    }
                }
                return cost
            }
        }
    }
}
