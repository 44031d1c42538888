import EmulatorMath
/// The Cramér–Rao bound of a TDoA position for an anchor geometry (reference §3.4): Fisher
/// information J = Σ_groups Gᵀ Q⁻¹ G with rows g_i = u_i − u_ref, u = (x − a)/‖x − a‖,
/// Q = σ²(I + 11ᵀ). With Q⁻¹ = (I − 11ᵀ/N)/σ² this is Σ_groups Σ_j (u_j − ū)(u_j − ū)ᵀ / σ²
/// over all N anchors of the group, the reference included: the bound does not depend on which
/// anchor is the reference. One pass over the anchors, no allocation: cheap enough for a map
/// of expected error over a grid.
public struct TDoAGeometry: Sendable {
    /// Every anchor, group after group.
    public let anchors: [Vector3]
    /// Group g is anchors[groupStart[g] ..< groupStart[g + 1]].
    public let groupStart: [Int]
    public let timingSigma: Double
    /// 2D (x, y) bound at this height; nil: 3D.
    public let fixedHeight: Double?

    /// Each cluster's anchors (reference included, in any order).
    public init(clusters: [[Vector3]], timingSigma: Double, fixedHeight: Double? = nil) {
        var a: [Vector3] = []
        var s = [0]
        for c in clusters {
            a.append(contentsOf: c)
            s.append(a.count)
        }
        anchors = a
        groupStart = s
        self.timingSigma = timingSigma
        self.fixedHeight = fixedHeight
    }

    /// The geometry of a problem's groups (its range differences are not used).
    public init(_ problem: TDoAProblem) {
        self.init(clusters: problem.groups.map { [$0.reference] + $0.anchors }, timingSigma: problem.timingSigma, fixedHeight: problem.fixedHeight)
    }

    /// The point actually evaluated: in 2D its z is the fixed height.
    @inline(__always) func evaluationPoint(_ x: Vector3) -> Vector3 {
        if let h = fixedHeight { return Vector3(x.x, x.y, h) }
        return x
    }

    /// Σ_groups Σ_j (u_j − ū)(u_j − ū)ᵀ: the Fisher information times σ² (unitless).
    public func normalizedFisherInformation(at point: Vector3) -> Matrix3 {
        let x = evaluationPoint(point)
        var h = Matrix3.zero
        anchors.withUnsafeBufferPointer { pos in
            groupStart.withUnsafeBufferPointer { gs in
                for g in 0..<(gs.count - 1) {
                    let n = gs[g + 1] - gs[g]
                    if n < 2 { continue }
                    var su = Vector3.zero
                    var suu = Matrix3.zero
                    for j in gs[g]..<gs[g + 1] {
                        let d = x - pos[j]
                        let u = d * (1 / max(d.length, 1e-9))
                        su += u
                        suu += Matrix3.outer(u)
                    }
                    h += suu - Matrix3.outer(su) * (1 / Double(n))
                }
            }
        }
        return h
    }

    /// J = Σ Gᵀ Q⁻¹ G, 1/m².
    public func fisherInformation(at point: Vector3) -> Matrix3 {
        normalizedFisherInformation(at: point) * (1 / (timingSigma * timingSigma))
    }

    /// J⁻¹ (in 2D the x, y block inverted, z row and column zero), m²; nil when singular.
    public func crlbCovariance(at point: Vector3) -> Matrix3? {
        let j = fisherInformation(at: point)
        return fixedHeight == nil ? j.inverse : j.inverseOfXYBlock
    }

    /// √tr(J⁻¹) (x, y only in 2D), metres; infinity when J is singular.
    public func crlbRMSE(at point: Vector3) -> Double { gdop(at: point) * timingSigma }

    /// CRLB RMSE / σ: the TDoA GDOP √tr((Gᵀ(I + 11ᵀ)⁻¹G)⁻¹); infinity when singular.
    public func gdop(at point: Vector3) -> Double {
        let h = normalizedFisherInformation(at: point)
        guard let c = fixedHeight == nil ? h.inverse : h.inverseOfXYBlock else { return .infinity }
        let t = c.trace
        return t >= 0 ? t.squareRoot() : .infinity
    }

    /// √tr(J⁻¹) for a problem's geometry at `point`, metres.
    public static func crlbRMSE(_ problem: TDoAProblem, at point: Vector3) -> Double {
        TDoAGeometry(problem).crlbRMSE(at: point)
    }

    /// GDOP for a problem's geometry at `point`.
    public static func gdop(_ problem: TDoAProblem, at point: Vector3) -> Double {
        TDoAGeometry(problem).gdop(at: point)
    }
}
