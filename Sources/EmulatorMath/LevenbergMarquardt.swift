/// Levenberg–Marquardt for small dense nonlinear least squares: minimises ‖r(θ)‖² over n ≤
/// `maxParameters` real parameters. Marquardt's scaling (damping on the diagonal of JᵀJ), a step
/// accepted only when it lowers the sum of squares (Marquardt 1963; Nocedal & Wright §10.3).
/// All storage is the caller's or the stack's: an iteration allocates nothing.
///
/// Two ways in: the problem fills the normal equations JᵀJ and Jᵀr itself (so a model whose
/// Jacobian is sparse, such as many antenna paths sharing a few positions, accumulates only
/// its non-zero products, and one whose J is a few sums, such as TDoA's 3×3, forms it in the
/// same pass as the cost), or it fills residuals and a dense Jacobian and the routine forms
/// them.
package enum LevenbergMarquardt {
    /// The most parameters one problem may have (the stack buffers' size).
    package static let maxParameters = 32

    package struct Result {
        /// ‖r‖² at the solution.
        package var cost: Double
        /// Iterations taken (each solves the damped normal equations until a step is accepted,
        /// at most eight times).
        package var iterations: Int
        /// The stopping rule was met; false when the iterations ran out or no damping found a
        /// lower cost (so a caller may try another start).
        package var converged: Bool
    }

    /// `evaluate(θ, normal, gradient)` returns ‖r(θ)‖², or nil when θ is outside the model's
    /// domain; when `normal` and `gradient` are non-nil it also fills JᵀJ (n×n, both triangles)
    /// and Jᵀr (n). `theta` (n values) is updated in place; `normal` is left holding JᵀJ at the
    /// solution, for the caller's covariance.
    ///
    /// Stops, converged, when a step moves no parameter by more than `tolerance` of the largest
    /// (checked before the step is tried: a step that small cannot reliably lower the cost, and
    /// at an exact minimum it would only be refused) or when an accepted step lowers the cost by
    /// less than `tolerance` of it.
    ///
    /// `dampingIncrease`: the factor the damping grows by when a step is refused (or the damped
    /// system is singular); it shrinks by 3 when one is accepted. A smaller factor keeps steps
    /// nearer Gauss–Newton's, which on a multimodal fit decides which local minimum is reached.
    ///
    /// `cheapJacobian`: the normal equations cost little more than ‖r‖² (one pass over the
    /// data, as TDoA's sums). Every trial then fills them, and an accepted trial's are kept
    /// instead of evaluating the model again at the accepted point. When they are dearer,
    /// trials ask for the cost only and JᵀJ is formed once per accepted step.
    package static func minimize(_ theta: UnsafeMutablePointer<Double>, n: Int, iterations: Int = 30, tolerance: Double = 1e-10,
                                 dampingIncrease: Double = 10, cheapJacobian: Bool = false, normal: UnsafeMutablePointer<Double>,
                                 normalEquations evaluate: (UnsafePointer<Double>, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?) -> Double?) -> Result? {
        precondition(n <= maxParameters)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 32 * 32 + 3 * 32) { buffer in
            // `work` holds the damped matrix, which the solver destroys; afterwards it and
            // `step` take a cheap trial's JᵀJ and Jᵀr.
            let work = buffer.baseAddress!
            let grad = work + 32 * 32, step = grad + 32, trial = step + 32
            guard var cost = evaluate(UnsafePointer(theta), normal, grad) else { return nil }
            var mu = 1e-3
            var taken = 0
            var converged = false
            outer: for iteration in 0..<iterations {
                taken = iteration + 1
                for _ in 0..<8 {
                    for k in 0..<(n * n) { work[k] = normal[k] }
                    for a in 0..<n {
                        work[a * n + a] += mu * max(normal[a * n + a], 1e-30)
                        step[a] = grad[a]
                    }
                    guard SmallDenseSolver.solve(work, step, n: n) else { mu *= dampingIncrease; continue }
                    var size = 0.0, scale = 0.0
                    for a in 0..<n {
                        trial[a] = theta[a] - step[a]
                        size = max(size, abs(step[a]))
                        scale = max(scale, abs(theta[a]))
                    }
                    if size <= tolerance * max(1, scale) {
                        converged = true
                        break outer
                    }
                    guard let trialCost = evaluate(UnsafePointer(trial), cheapJacobian ? work : nil, cheapJacobian ? step : nil),
                          trialCost < cost else { mu *= dampingIncrease; continue }
                    for a in 0..<n { theta[a] = trial[a] }
                    converged = cost - trialCost <= tolerance * cost
                    mu = max(mu / 3, 1e-12)
                    if cheapJacobian {
                        cost = trialCost
                        for k in 0..<(n * n) { normal[k] = work[k] }
                        for a in 0..<n { grad[a] = step[a] }
                    } else {
                        // JᵀJ at the accepted point (also when converged: the caller's covariance).
                        cost = evaluate(UnsafePointer(theta), normal, grad) ?? trialCost
                    }
                    if converged { break outer }
                    continue outer
                }
                break
            }
            return Result(cost: cost, iterations: taken, converged: converged)
        }
    }

    /// The dense form: `evaluate(θ, r, J)` fills r (m values) and, when J is non-nil, J (m×n,
    /// row-major); it returns false when θ is outside the model's domain.
    package static func minimize(_ theta: UnsafeMutablePointer<Double>, n: Int, m: Int, iterations: Int = 30, tolerance: Double = 1e-10,
                                 dampingIncrease: Double = 10, normal: UnsafeMutablePointer<Double>,
                                 _ evaluate: (UnsafePointer<Double>, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>?) -> Bool) -> Result? {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: m * n + m) { buffer in
            let jac = buffer.baseAddress!, res = jac + m * n
            return minimize(theta, n: n, iterations: iterations, tolerance: tolerance, dampingIncrease: dampingIncrease, normal: normal) { t, normal, grad in
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
