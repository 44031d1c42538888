@testable import EmulatorMath
import Testing

struct ComplexTests {
    @Test func arithmetic() {
        let a = Complex(1, 2), b = Complex(3, -1)
        #expect(a * b == Complex(5, 5))
        #expect(((a / b) * b - a).magnitude < 1e-12)
        #expect(abs(Complex(phase: 1.25).phase - 1.25) < 1e-12)
        #expect(a.conjugate == Complex(1, -2))
    }
}
