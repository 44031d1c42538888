import Foundation

/// A small dense complex matrix (row-major) with the few algorithms the super-resolution
/// estimator needs: Hermitian eigendecomposition (cyclic Jacobi), linear solve (Gaussian
/// elimination with partial pivoting) and the eigenvalues of a small general matrix
/// (Faddeev–LeVerrier characteristic polynomial, Durand–Kerner roots). Sizes here are ≤ ~40,
/// so clarity beats blocking.
package struct ComplexMatrix: Sendable, Equatable {
    var rows: Int
    var cols: Int
    var data: [Complex]

    package init(rows: Int, cols: Int) {
        self.rows = rows
        self.cols = cols
        data = [Complex](repeating: .zero, count: rows * cols)
    }

    @inline(__always) package subscript(i: Int, j: Int) -> Complex {
        get { data[i * cols + j] }
        set { data[i * cols + j] = newValue }
    }

    static func identity(_ n: Int) -> ComplexMatrix {
        var m = ComplexMatrix(rows: n, cols: n)
        for i in 0..<n { m[i, i] = .one }
        return m
    }

    static func * (a: ComplexMatrix, b: ComplexMatrix) -> ComplexMatrix {
        precondition(a.cols == b.rows)
        var c = ComplexMatrix(rows: a.rows, cols: b.cols)
        for i in 0..<a.rows {
            for k in 0..<a.cols {
                let x = a[i, k]
                if x.re == 0 && x.im == 0 { continue }
                for j in 0..<b.cols { c[i, j] += x * b[k, j] }
            }
        }
        return c
    }

    /// Aᴴ·B.
    package static func adjointProduct(_ a: ComplexMatrix, _ b: ComplexMatrix) -> ComplexMatrix {
        precondition(a.rows == b.rows)
        var c = ComplexMatrix(rows: a.cols, cols: b.cols)
        for k in 0..<a.rows {
            for i in 0..<a.cols {
                let x = a[k, i].conjugate
                for j in 0..<b.cols { c[i, j] += x * b[k, j] }
            }
        }
        return c
    }

    /// Eigenvalues (descending) and orthonormal eigenvectors (columns, same order) of a Hermitian
    /// matrix, by cyclic Jacobi rotations. Each rotation first turns a_pq real with a phase on
    /// column q, then applies the real symmetric Jacobi rotation (Numerical Recipes §11.1).
    package static func hermitianEigen(_ input: ComplexMatrix, maxSweeps: Int = 50) -> (values: [Double], vectors: ComplexMatrix) {
        let n = input.rows
        var a = input
        var v = ComplexMatrix.identity(n)
        var total = 0.0
        for x in a.data { total += x.magnitudeSquared }
        for _ in 0..<maxSweeps {
            var off = 0.0
            for p in 0..<n { for q in (p + 1)..<max(p + 1, n) { off += a[p, q].magnitudeSquared } }
            if off <= 1e-30 * total || off == 0 { break }
            for p in 0..<(n - 1) {
                for q in (p + 1)..<n {
                    let apq = a[p, q]
                    let mag = apq.magnitude
                    if mag <= 1e-300 { continue }
                    let e = Complex(apq.re / mag, -apq.im / mag) // e^{−jφ}
                    let theta = (a[q, q].re - a[p, p].re) / (2 * mag)
                    let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot()
                    let s = t * c
                    // Columns: A ← A·V with V_pp = c, V_pq = s, V_qp = −s·e, V_qq = c·e.
                    for k in 0..<n {
                        let akp = a[k, p], akq = a[k, q] * e
                        a[k, p] = akp * c - akq * s
                        a[k, q] = akp * s + akq * c
                        let vkp = v[k, p], vkq = v[k, q] * e
                        v[k, p] = vkp * c - vkq * s
                        v[k, q] = vkp * s + vkq * c
                    }
                    // Rows: A ← Vᴴ·A.
                    let ec = e.conjugate
                    for k in 0..<n {
                        let apk = a[p, k], aqk = a[q, k] * ec
                        a[p, k] = apk * c - aqk * s
                        a[q, k] = apk * s + aqk * c
                    }
                    a[p, q] = .zero
                    a[q, p] = .zero
                }
            }
        }
        let order = (0..<n).sorted { a[$0, $0].re > a[$1, $1].re }
        var vectors = ComplexMatrix(rows: n, cols: n)
        for (j, src) in order.enumerated() { for i in 0..<n { vectors[i, j] = v[i, src] } }
        return (order.map { a[$0, $0].re }, vectors)
    }

    /// Solves A·X = B (A square); `nil` if A is singular to working precision.
    package static func solve(_ a0: ComplexMatrix, _ b0: ComplexMatrix) -> ComplexMatrix? {
        let n = a0.rows
        var a = a0, b = b0
        var scale = 0.0
        for x in a.data { scale = max(scale, x.magnitude) }
        for col in 0..<n {
            var piv = col
            var best = a[col, col].magnitudeSquared
            for r in (col + 1)..<max(col + 1, n) where a[r, col].magnitudeSquared > best {
                best = a[r, col].magnitudeSquared
                piv = r
            }
            if best.squareRoot() <= 1e-14 * scale || best == 0 { return nil }
            if piv != col {
                for j in 0..<n { let t = a[col, j]; a[col, j] = a[piv, j]; a[piv, j] = t }
                for j in 0..<b.cols { let t = b[col, j]; b[col, j] = b[piv, j]; b[piv, j] = t }
            }
            let inv = Complex.one / a[col, col]
            for r in (col + 1)..<max(col + 1, n) {
                let f = a[r, col] * inv
                if f.re == 0 && f.im == 0 { continue }
                for j in col..<n { a[r, j] = a[r, j] - f * a[col, j] }
                for j in 0..<b.cols { b[r, j] = b[r, j] - f * b[col, j] }
            }
        }
        var x = ComplexMatrix(rows: n, cols: b.cols)
        for j in 0..<b.cols {
            for i in stride(from: n - 1, through: 0, by: -1) {
                var s = b[i, j]
                for k in (i + 1)..<max(i + 1, n) { s = s - a[i, k] * x[k, j] }
                x[i, j] = s / a[i, i]
            }
        }
        return x
    }

    /// Eigenvalues of a small square matrix: roots of its characteristic polynomial (Faddeev–
    /// LeVerrier), found with Durand–Kerner. Fine for the ≤ 8×8, well-separated-from-zero
    /// rotation matrices of ESPRIT.
    package static func eigenvalues(_ a: ComplexMatrix) -> [Complex] {
        let n = a.rows
        if n == 1 { return [a[0, 0]] }
        // coeffs[k] multiplies λ^k; monic.
        var coeffs = [Complex](repeating: .zero, count: n + 1)
        coeffs[n] = .one
        var m = ComplexMatrix(rows: n, cols: n)
        for k in 1...n {
            var am = a * m
            for i in 0..<n { am[i, i] += coeffs[n - k + 1] }
            m = am
            let am2 = a * m
            var tr = Complex.zero
            for i in 0..<n { tr += am2[i, i] }
            coeffs[n - k] = tr * (-1.0 / Double(k))
        }
        return polynomialRoots(monic: coeffs)
    }

    /// Roots of Σ c_k x^k with c_n = 1, by Durand–Kerner (Weierstrass) iteration.
    static func polynomialRoots(monic c: [Complex]) -> [Complex] {
        let n = c.count - 1
        var bound = 0.0
        for k in 0..<n { bound = max(bound, c[k].magnitude) }
        let radius = 1 + bound
        var z = (0..<n).map { Complex(phase: 2 * Double.pi * Double($0) / Double(n) + 0.4) * (0.5 * min(radius, 2)) }
        @inline(__always) func eval(_ x: Complex) -> Complex {
            var p = Complex.one
            for k in stride(from: n - 1, through: 0, by: -1) { p = p * x + c[k] }
            return p
        }
        for _ in 0..<500 {
            var change = 0.0
            for i in 0..<n {
                var den = Complex.one
                for j in 0..<n where j != i { den = den * (z[i] - z[j]) }
                if den.magnitudeSquared == 0 { den = Complex(1e-12, 0) }
                let step = eval(z[i]) / den
                z[i] = z[i] - step
                change = max(change, step.magnitude)
            }
            if change < 1e-15 { break }
        }
        return z
    }
}
