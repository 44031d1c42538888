/// A complex baseband value: a received tone's in-phase and quadrature components, or a phase
/// rotation to apply to a transmitted tone. Single precision, as a Cortex-M4F FPU computes it.
public struct IQSample: Sendable, Equatable {
    public var i: Float
    public var q: Float

    public init(i: Float, q: Float) {
        self.i = i
        self.q = q
    }

    /// 1 + 0j: no rotation.
    public static let one = IQSample(i: 1, q: 0)
    public static let zero = IQSample(i: 0, q: 0)

    @inline(__always)
    public static func * (a: IQSample, b: IQSample) -> IQSample {
        IQSample(i: a.i * b.i - a.q * b.q, q: a.i * b.q + a.q * b.i)
    }

    @inline(__always)
    public static func + (a: IQSample, b: IQSample) -> IQSample { IQSample(i: a.i + b.i, q: a.q + b.q) }

    @inline(__always)
    public static func * (a: IQSample, s: Float) -> IQSample { IQSample(i: a.i * s, q: a.q * s) }

    @inline(__always)
    public var conjugate: IQSample { IQSample(i: i, q: -q) }

    @inline(__always)
    public var magnitudeSquared: Float { i * i + q * q }

    @inline(__always)
    public var magnitude: Float { magnitudeSquared.squareRoot() }

    /// The unit phasor with this sample's phase (1 + 0j for a zero sample): what inline PCT
    /// transfer applies to the reflector's tone.
    @inline(__always)
    public var unitPhasor: IQSample {
        let m = magnitude
        return m > 0 ? IQSample(i: i / m, q: q / m) : .one
    }
}
