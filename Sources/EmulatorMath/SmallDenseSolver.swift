/// Gaussian elimination with partial pivoting on a small dense system held in caller-provided
/// memory (a stack buffer from `withUnsafeTemporaryAllocation`): no allocation. For the
/// 3×3 / 4×4 normal equations of Chan–Ho.
package enum SmallDenseSolver {
    /// Solves A x = b in place: `a` is n×n row-major (destroyed), `b` becomes x. False when a
    /// pivot is below `relativePivot` × the largest |entry| of A (singular or nearly so).
    package static func solve(_ a: UnsafeMutablePointer<Double>, _ b: UnsafeMutablePointer<Double>, n: Int, relativePivot: Double = 1e-12) -> Bool {
        var scale = 0.0
        for k in 0..<(n * n) { scale = max(scale, abs(a[k])) }
        guard scale > 0, scale.isFinite else { return false }
        for col in 0..<n {
            var p = col
            var best = abs(a[col * n + col])
            for r in (col + 1)..<max(col + 1, n) where abs(a[r * n + col]) > best {
                best = abs(a[r * n + col])
                p = r
            }
            if best <= relativePivot * scale { return false }
            if p != col {
                for k in 0..<n { swap(&a[p * n + k], &a[col * n + k]) }
                swap(&b[p], &b[col])
            }
            let inv = 1 / a[col * n + col]
            for r in (col + 1)..<max(col + 1, n) {
                let f = a[r * n + col] * inv
                if f == 0 { continue }
                for k in col..<n { a[r * n + k] -= f * a[col * n + k] }
                b[r] -= f * b[col]
            }
        }
        var row = n - 1
        while row >= 0 {
            var s = b[row]
            for k in (row + 1)..<max(row + 1, n) { s -= a[row * n + k] * b[k] }
            b[row] = s / a[row * n + row]
            row -= 1
        }
        for k in 0..<n where !b[k].isFinite { return false }
        return true
    }
}
