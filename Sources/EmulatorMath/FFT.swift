import Foundation

/// A small iterative radix-2 FFT on split real/imaginary arrays, for the IFFT estimator. The
/// twiddle factors and bit-reversal table are built once per size and reused.
public struct FFT: Sendable {
    public let size: Int
    private let cosTable: [Double]
    private let sinTable: [Double]
    private let bitReverse: [Int32]

    /// `size` must be a power of two ≥ 2.
    public init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        let half = size / 2
        cosTable = (0..<half).map { cos(2 * Double.pi * Double($0) / Double(size)) }
        sinTable = (0..<half).map { sin(2 * Double.pi * Double($0) / Double(size)) }
        var bits = 0
        while 1 << bits < size { bits += 1 }
        bitReverse = (0..<size).map { i in
            var r = 0, x = i
            for _ in 0..<bits { r = (r << 1) | (x & 1); x >>= 1 }
            return Int32(r)
        }
    }

    /// In place: forward X[m] = Σ x[n]·e^{−j2πnm/N}, or (inverse) Σ x[n]·e^{+j2πnm/N}, unscaled.
    public func transform(re: inout [Double], im: inout [Double], inverse: Bool) {
        precondition(re.count == size && im.count == size)
        let n = size
        re.withUnsafeMutableBufferPointer { xr in
            im.withUnsafeMutableBufferPointer { xi in
                cosTable.withUnsafeBufferPointer { ct in
                    sinTable.withUnsafeBufferPointer { st in
                        bitReverse.withUnsafeBufferPointer { br in
                            for i in 0..<n {
                                let j = Int(br[i])
                                if j > i { xr.swapAt(i, j); xi.swapAt(i, j) }
                            }
                            let sign = inverse ? 1.0 : -1.0
                            var len = 2
                            while len <= n {
                                let halfLen = len / 2
                                let step = n / len
                                var start = 0
                                while start < n {
                                    for k in 0..<halfLen {
                                        let wr = ct[k * step], wi = sign * st[k * step]
                                        let a = start + k, b = a + halfLen
                                        let tr = xr[b] * wr - xi[b] * wi
                                        let ti = xr[b] * wi + xi[b] * wr
                                        xr[b] = xr[a] - tr
                                        xi[b] = xi[a] - ti
                                        xr[a] += tr
                                        xi[a] += ti
                                    }
                                    start += len
                                }
                                len <<= 1
                            }
                        }
                    }
                }
            }
        }
    }
}
