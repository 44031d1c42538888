/// A complex number in double precision: the host side's arithmetic for round-trip tones,
/// spectra and subspace estimators (the firmware's `IQSample` is single precision).
public struct Complex: Sendable, Equatable, Hashable {
    public var re: Double
    public var im: Double

    @inline(__always) public init(_ re: Double, _ im: Double = 0) {
        self.re = re
        self.im = im
    }

    /// e^{jθ}.
    @inline(__always) public init(phase: Double) { self.init(_cos(phase), _sin(phase)) }

    public static let zero = Complex(0, 0)
    public static let one = Complex(1, 0)

    @inline(__always) public static func + (a: Complex, b: Complex) -> Complex { Complex(a.re + b.re, a.im + b.im) }
    @inline(__always) public static func - (a: Complex, b: Complex) -> Complex { Complex(a.re - b.re, a.im - b.im) }
    @inline(__always) public static func * (a: Complex, b: Complex) -> Complex {
        Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
    }
    @inline(__always) public static func * (a: Complex, s: Double) -> Complex { Complex(a.re * s, a.im * s) }
    @inline(__always) public static func / (a: Complex, b: Complex) -> Complex {
        let d = b.re * b.re + b.im * b.im
        return Complex((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d)
    }
    @inline(__always) public static func += (a: inout Complex, b: Complex) { a = a + b }
    @inline(__always) public static prefix func - (a: Complex) -> Complex { Complex(-a.re, -a.im) }

    @inline(__always) public var conjugate: Complex { Complex(re, -im) }
    @inline(__always) public var magnitudeSquared: Double { re * re + im * im }
    @inline(__always) public var magnitude: Double { magnitudeSquared.squareRoot() }
    @inline(__always) public var phase: Double { _atan2(im, re) }
}
