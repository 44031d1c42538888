/// A 3×3 matrix of doubles, row-major, on the stack: position covariances and Fisher
/// informations. Small hand-written operations (no allocation), enough for the positioning
/// code; `inverse` is the adjugate over the determinant.
public struct Matrix3: Sendable, Equatable, Hashable {
    public var m00: Double, m01: Double, m02: Double
    public var m10: Double, m11: Double, m12: Double
    public var m20: Double, m21: Double, m22: Double

    public init(_ m00: Double, _ m01: Double, _ m02: Double,
                _ m10: Double, _ m11: Double, _ m12: Double,
                _ m20: Double, _ m21: Double, _ m22: Double) {
        self.m00 = m00; self.m01 = m01; self.m02 = m02
        self.m10 = m10; self.m11 = m11; self.m12 = m12
        self.m20 = m20; self.m21 = m21; self.m22 = m22
    }

    public static let zero = Matrix3(0, 0, 0, 0, 0, 0, 0, 0, 0)
    public static let identity = Matrix3(1, 0, 0, 0, 1, 0, 0, 0, 1)

    /// diag(d).
    public static func diagonal(_ a: Double, _ b: Double, _ c: Double) -> Matrix3 { Matrix3(a, 0, 0, 0, b, 0, 0, 0, c) }

    /// v vᵀ.
    @inline(__always) public static func outer(_ v: Vector3) -> Matrix3 { outer(v, v) }

    /// a bᵀ.
    @inline(__always) public static func outer(_ a: Vector3, _ b: Vector3) -> Matrix3 {
        Matrix3(a.x * b.x, a.x * b.y, a.x * b.z,
                a.y * b.x, a.y * b.y, a.y * b.z,
                a.z * b.x, a.z * b.y, a.z * b.z)
    }

    /// Element (row, column), both in 0..<3.
    public subscript(row: Int, column: Int) -> Double {
        get {
            switch (row, column) {
            case (0, 0): m00
            case (0, 1): m01
            case (0, 2): m02
            case (1, 0): m10
            case (1, 1): m11
            case (1, 2): m12
            case (2, 0): m20
            case (2, 1): m21
            case (2, 2): m22
            default: preconditionFailure("Matrix3 index out of range")
            }
        }
        set {
            switch (row, column) {
            case (0, 0): m00 = newValue
            case (0, 1): m01 = newValue
            case (0, 2): m02 = newValue
            case (1, 0): m10 = newValue
            case (1, 1): m11 = newValue
            case (1, 2): m12 = newValue
            case (2, 0): m20 = newValue
            case (2, 1): m21 = newValue
            case (2, 2): m22 = newValue
            default: preconditionFailure("Matrix3 index out of range")
            }
        }
    }

    /// Row-major elements.
    public var elements: [Double] { [m00, m01, m02, m10, m11, m12, m20, m21, m22] }

    public var trace: Double { m00 + m11 + m22 }

    public var transposed: Matrix3 { Matrix3(m00, m10, m20, m01, m11, m21, m02, m12, m22) }

    public var determinant: Double {
        m00 * (m11 * m22 - m12 * m21) - m01 * (m10 * m22 - m12 * m20) + m02 * (m10 * m21 - m11 * m20)
    }

    /// The inverse, nil when singular (|det| below 1e-300 or relative to the scale of the
    /// entries below 1e-14).
    public var inverse: Matrix3? {
        let c00 = m11 * m22 - m12 * m21, c01 = m02 * m21 - m01 * m22, c02 = m01 * m12 - m02 * m11
        let c10 = m12 * m20 - m10 * m22, c11 = m00 * m22 - m02 * m20, c12 = m02 * m10 - m00 * m12
        let c20 = m10 * m21 - m11 * m20, c21 = m01 * m20 - m00 * m21, c22 = m00 * m11 - m01 * m10
        let det = m00 * c00 + m01 * c10 + m02 * c20
        let scale = max(abs(m00), abs(m01), abs(m02), abs(m10), abs(m11), abs(m12), abs(m20), abs(m21), abs(m22))
        guard det.isFinite, abs(det) > 1e-300, abs(det) > 1e-14 * scale * scale * scale else { return nil }
        let s = 1 / det
        return Matrix3(c00 * s, c01 * s, c02 * s, c10 * s, c11 * s, c12 * s, c20 * s, c21 * s, c22 * s)
    }

    /// The upper-left 2×2 block inverted, embedded with zeros in row and column 2 (the
    /// covariance of a fix in the plane at a known height); nil when singular.
    public var inverseOfXYBlock: Matrix3? {
        let det = m00 * m11 - m01 * m10
        let scale = max(abs(m00), abs(m01), abs(m10), abs(m11))
        guard det.isFinite, abs(det) > 1e-300, abs(det) > 1e-14 * scale * scale else { return nil }
        let s = 1 / det
        return Matrix3(m11 * s, -m01 * s, 0, -m10 * s, m00 * s, 0, 0, 0, 0)
    }

    /// (A + Aᵀ)/2.
    public var symmetrized: Matrix3 {
        let a = (m01 + m10) / 2, b = (m02 + m20) / 2, c = (m12 + m21) / 2
        return Matrix3(m00, a, b, a, m11, c, b, c, m22)
    }

    @inline(__always) public static func + (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(a.m00 + b.m00, a.m01 + b.m01, a.m02 + b.m02,
                a.m10 + b.m10, a.m11 + b.m11, a.m12 + b.m12,
                a.m20 + b.m20, a.m21 + b.m21, a.m22 + b.m22)
    }

    @inline(__always) public static func - (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(a.m00 - b.m00, a.m01 - b.m01, a.m02 - b.m02,
                a.m10 - b.m10, a.m11 - b.m11, a.m12 - b.m12,
                a.m20 - b.m20, a.m21 - b.m21, a.m22 - b.m22)
    }

    @inline(__always) public static func * (a: Matrix3, s: Double) -> Matrix3 {
        Matrix3(a.m00 * s, a.m01 * s, a.m02 * s, a.m10 * s, a.m11 * s, a.m12 * s, a.m20 * s, a.m21 * s, a.m22 * s)
    }

    @inline(__always) public static func += (a: inout Matrix3, b: Matrix3) { a = a + b }

    @inline(__always) public static func * (a: Matrix3, v: Vector3) -> Vector3 {
        Vector3(a.m00 * v.x + a.m01 * v.y + a.m02 * v.z,
                a.m10 * v.x + a.m11 * v.y + a.m12 * v.z,
                a.m20 * v.x + a.m21 * v.y + a.m22 * v.z)
    }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(a.m00 * b.m00 + a.m01 * b.m10 + a.m02 * b.m20,
                a.m00 * b.m01 + a.m01 * b.m11 + a.m02 * b.m21,
                a.m00 * b.m02 + a.m01 * b.m12 + a.m02 * b.m22,
                a.m10 * b.m00 + a.m11 * b.m10 + a.m12 * b.m20,
                a.m10 * b.m01 + a.m11 * b.m11 + a.m12 * b.m21,
                a.m10 * b.m02 + a.m11 * b.m12 + a.m12 * b.m22,
                a.m20 * b.m00 + a.m21 * b.m10 + a.m22 * b.m20,
                a.m20 * b.m01 + a.m21 * b.m11 + a.m22 * b.m21,
                a.m20 * b.m02 + a.m21 * b.m12 + a.m22 * b.m22)
    }

    /// vᵀ A v.
    @inline(__always) public func quadraticForm(_ v: Vector3) -> Double { v.dot(self * v) }
}
