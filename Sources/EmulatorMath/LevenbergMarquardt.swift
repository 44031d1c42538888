/// Levenberg–Marquardt for small dense nonlinear least squares: minimises ‖r(θ)‖² over n ≤ 32
/// real parameters with m real residuals, given a function that fills the residuals and their
/// Jacobian (m×n, row-major). Marquardt's scaling (damping on the diagonal of JᵀJ), a step
/// accepted only when it lowers the sum of squares. All storage is the caller's or the stack's.
package enum LevenbergMarquardt {
    package struct Result {
        /// ‖r‖² at the solution.
        package var cost: Double
        /// Iterations taken.
        package var iterations: Int
    }

    /// `evaluate(θ, r, J)` fills r (m values) and, when J is non-nil, J (m×n); it returns false
    /// when θ is outside the model's domain. `theta` (n values) is updated in place;
    /// `normal` (n×n) is left holding JᵀJ at the solution, for the caller's covariance.
    package static func minimize(_ theta: UnsafeMutablePointer<Double>, n: Int, m: Int, iterations: Int = 30, tolerance: Double = 1e-10,
                                 normal: UnsafeMutablePointer<Double>,
                                 _ evaluate: (UnsafePointer<Double>, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>?) -> Bool) -> Result? {
        precondition(n <= 32)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: m * n + 2 * m + 32 * 32 + 4 * 32) { buffer in
            let base = buffer.baseAddress!
            let jac = base, res = base + m * n, trialRes = res + m, work = trialRes + m
            let grad = work + 32 * 32, step = grad + 32, trial = step + 32
            /// JᵀJ into `normal`, and Jᵀr into `grad`.
            func normalEquations() {
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
            }
            guard evaluate(UnsafePointer(theta), res, jac) else { return nil }
            var cost = 0.0
            for i in 0..<m { cost += res[i] * res[i] }
            var mu = 1e-3
            var taken = 0
            outer: for iteration in 0..<iterations {
                taken = iteration + 1
                normalEquations()
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
                    guard evaluate(UnsafePointer(trial), trialRes, nil) else { mu *= 10; continue }
                    var trialCost = 0.0
                    for i in 0..<m { trialCost += trialRes[i] * trialRes[i] }
                    if trialCost < cost {
                        for a in 0..<n { theta[a] = trial[a] }
                        let converged = cost - trialCost <= tolerance * cost || size <= tolerance * max(1, scale)
                        cost = trialCost
                        mu = max(mu / 3, 1e-12)
                        _ = evaluate(UnsafePointer(theta), res, jac)
                        if converged { break outer }
                        continue outer
                    }
                    mu *= 10
                }
                break
            }
            normalEquations()  // JᵀJ at the solution (the last accepted step moved θ)
            return Result(cost: cost, iterations: taken)
        }
    }
}
