import Testing
@testable import ReflectorFirmware

/// The step engine packs PCTs from Float (`init(i: Float, q: Float)`): it must give what the
/// Double form gives for every value, halves and saturation included.
struct PhaseCorrectionTermFloatTests {
    @Test func floatAndDoubleFormsAgree() {
        var values: [Float] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2046.5, -2046.5, 2046.75, -2046.75, 2047, -2047, 2047.5, -2047.5,
                               2048, -2048, 1e9, -1e9, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
                               Float(2047).nextDown, Float(-2047).nextUp, Float(0.5).nextDown, Float(-0.5).nextUp]
        for k in -17_000...17_000 { values.append(Float(k) / 8) }
        var x: UInt32 = 0x9E37_79B9
        for _ in 0..<20_000 {
            x ^= x << 13; x ^= x >> 17; x ^= x << 5
            values.append(Float(bitPattern: x))
        }
        for v in values {
            #expect(PhaseCorrectionTerm(i: v, q: -v) == PhaseCorrectionTerm(i: Double(v), q: Double(-v)), "\(v)")
        }
    }
}
