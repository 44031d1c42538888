@testable import EmulatorMath
import Foundation
import Testing

/// Levenberg–Marquardt on problems with known answers: Rosenbrock's valley as least squares
/// (r = (10(y − x²), 1 − x), minimum (1, 1) from the classic start (−1.2, 1)); an exponential
/// decay fitted to exact samples (its parameters recovered, JᵀJ left for the covariance); a
/// domain the model refuses (the step is damped back inside); the stopping rule reported; the
/// same fit with the normal equations filled at every trial (`cheapJacobian`); the damping's
/// growth on refused steps (`dampingIncrease`).
@Suite struct LevenbergMarquardtTests {
    /// Rosenbrock's valley from `start`: the parameters, JᵀJ left at the end, and the result.
    static func rosenbrock(from start: [Double], iterations: Int) throws -> (theta: [Double], normal: [Double], result: LevenbergMarquardt.Result) {
        var theta = start
        var normal = [Double](repeating: 0, count: 4)
        let result = try #require(LevenbergMarquardt.minimize(&theta, n: 2, m: 2, iterations: iterations, normal: &normal) { t, r, j in
            r[0] = 10 * (t[1] - t[0] * t[0])
            r[1] = 1 - t[0]
            if let j {
                j[0] = -20 * t[0]; j[1] = 10
                j[2] = -1; j[3] = 0
            }
            return true
        })
        return (theta, normal, result)
    }

    @Test func rosenbrocksValley() throws {
        let (theta, normal, result) = try Self.rosenbrock(from: [-1.2, 1], iterations: 200)
        #expect(abs(theta[0] - 1) < 1e-6 && abs(theta[1] - 1) < 1e-6, "\(theta)")
        #expect(result.cost < 1e-12 && result.converged)
        // JᵀJ at (1, 1): J = [[−20, 10], [−1, 0]].
        #expect(abs(normal[0] - 401) < 1e-3 && abs(normal[1] + 200) < 1e-3 && abs(normal[3] - 100) < 1e-3, "\(normal)")
    }

    @Test func anExponentialDecayIsRecovered() throws {
        let ts = (0..<20).map { Double($0) * 0.25 }
        let ys = ts.map { 3 * exp(-0.7 * $0) }
        var theta: [Double] = [1, 0.1]
        var normal = [Double](repeating: 0, count: 4)
        _ = try #require(LevenbergMarquardt.minimize(&theta, n: 2, m: ts.count, normal: &normal) { t, r, j in
            for (i, x) in ts.enumerated() {
                let e = exp(-t[1] * x)
                r[i] = t[0] * e - ys[i]
                if let j {
                    j[2 * i] = e
                    j[2 * i + 1] = -t[0] * x * e
                }
            }
            return true
        })
        #expect(abs(theta[0] - 3) < 1e-8 && abs(theta[1] - 0.7) < 1e-8, "\(theta)")
    }

    /// The model refuses x < 0.5: the minimum of (x − 0.2)² is then approached from inside, never left.
    @Test func aRefusedDomainKeepsTheStepInside() throws {
        var theta: [Double] = [3]
        var normal = [Double](repeating: 0, count: 1)
        var lowest = Double.infinity
        _ = try #require(LevenbergMarquardt.minimize(&theta, n: 1, m: 1, normal: &normal) { t, r, j in
            guard t[0] >= 0.5 else { return false }
            lowest = min(lowest, t[0])
            r[0] = t[0] - 0.2
            j?[0] = 1
            return true
        })
        #expect(theta[0] >= 0.5 && theta[0] < 0.6 && lowest >= 0.5, "\(theta[0])")
    }

    /// Started at the minimum, the first step is below the tolerance: converged at once, not
    /// refused eight times. Cut short, a fit says it did not converge.
    @Test func convergenceIsReported() throws {
        let atMinimum = try Self.rosenbrock(from: [1, 1], iterations: 30)
        #expect(atMinimum.result.converged && atMinimum.result.iterations == 1 && atMinimum.theta == [1, 1])
        let cut = try Self.rosenbrock(from: [-1.2, 1], iterations: 2)
        #expect(!cut.result.converged && cut.result.iterations == 2)
    }

    /// The exponential decay through the normal-equations entry point, once with JᵀJ formed at
    /// each accepted point and once filled by every trial: the same answer, and the second
    /// evaluates the model once per trial only (no second pass at the accepted point).
    @Test func cheapJacobianGivesTheSameFitWithFewerEvaluations() throws {
        let ts = (0..<20).map { Double($0) * 0.25 }
        let ys = ts.map { 3 * exp(-0.7 * $0) }
        func fit(cheap: Bool) throws -> (theta: [Double], normal: [Double], evaluations: Int, withNormal: Int) {
            var theta: [Double] = [1, 0.1]
            var normal = [Double](repeating: 0, count: 4)
            var evaluations = 0, withNormal = 0
            let result = try #require(LevenbergMarquardt.minimize(&theta, n: 2, cheapJacobian: cheap, normal: &normal) { t, normal, grad in
                evaluations += 1
                if normal != nil { withNormal += 1 }
                var cost = 0.0
                var h = (0.0, 0.0, 0.0), g = (0.0, 0.0)
                for (i, x) in ts.enumerated() {
                    let e = exp(-t[1] * x)
                    let r = t[0] * e - ys[i], j0 = e, j1 = -t[0] * x * e
                    cost += r * r
                    h = (h.0 + j0 * j0, h.1 + j0 * j1, h.2 + j1 * j1)
                    g = (g.0 + j0 * r, g.1 + j1 * r)
                }
                if let normal, let grad {
                    normal[0] = h.0; normal[1] = h.1; normal[2] = h.1; normal[3] = h.2
                    grad[0] = g.0; grad[1] = g.1
                }
                return cost
            })
            #expect(result.converged)
            return (theta, normal, evaluations, withNormal)
        }
        let dear = try fit(cheap: false), cheap = try fit(cheap: true)
        for (a, b) in zip(dear.theta, cheap.theta) { #expect(abs(a - b) < 1e-9) }
        #expect(abs(cheap.theta[0] - 3) < 1e-8 && abs(cheap.theta[1] - 0.7) < 1e-8, "\(cheap.theta)")
        // JᵀJ at the solution either way (the caller's covariance).
        for (a, b) in zip(dear.normal, cheap.normal) { #expect(abs(a - b) <= 1e-9 * abs(a)) }
        #expect(cheap.withNormal == cheap.evaluations && cheap.evaluations < dear.evaluations, "\(cheap.evaluations) vs \(dear.evaluations)")
    }

    /// From 3 toward the minimum 0.2 of (x − 0.2)² with x < 0.5 refused: each trial is
    /// 3 − 2.8/(1 + μ), so the refused trials show μ growing by `dampingIncrease` each time.
    @Test(arguments: [4.0, 10.0]) func aRefusedStepGrowsTheDampingByTheGivenFactor(factor: Double) throws {
        var theta: [Double] = [3]
        var normal = [Double](repeating: 0, count: 1)
        var trials: [Double] = []
        _ = try #require(LevenbergMarquardt.minimize(&theta, n: 1, m: 1, dampingIncrease: factor, normal: &normal) { t, r, j in
            if j == nil { trials.append(t[0]) }
            guard t[0] >= 0.5 else { return false }
            r[0] = t[0] - 0.2
            j?[0] = 1
            return true
        })
        let mu = trials.prefix { $0 < 0.5 }.map { 2.8 / (3 - $0) - 1 }
        try #require(mu.count >= 3, "\(trials)")
        #expect(abs(mu[0] - 1e-3) < 1e-9)
        for (a, b) in zip(mu, mu.dropFirst()) { #expect(abs(b / a - factor) < 1e-6, "\(mu)") }
    }
}
