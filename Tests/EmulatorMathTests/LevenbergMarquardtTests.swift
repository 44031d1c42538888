@testable import EmulatorMath
import Foundation
import Testing

/// Levenberg–Marquardt on problems with known answers: Rosenbrock's valley as least squares
/// (r = (10(y − x²), 1 − x), minimum (1, 1) from the classic start (−1.2, 1)); an exponential
/// decay fitted to exact samples (its parameters recovered, JᵀJ left for the covariance); a
/// domain the model refuses (the step is damped back inside).
@Suite struct LevenbergMarquardtTests {
    @Test func rosenbrocksValley() throws {
        var theta: [Double] = [-1.2, 1]
        var normal = [Double](repeating: 0, count: 4)
        let result = try #require(LevenbergMarquardt.minimize(&theta, n: 2, m: 2, iterations: 200, normal: &normal) { t, r, j in
            r[0] = 10 * (t[1] - t[0] * t[0])
            r[1] = 1 - t[0]
            if let j {
                j[0] = -20 * t[0]; j[1] = 10
                j[2] = -1; j[3] = 0
            }
            return true
        })
        #expect(abs(theta[0] - 1) < 1e-6 && abs(theta[1] - 1) < 1e-6, "\(theta)")
        #expect(result.cost < 1e-12)
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
}
