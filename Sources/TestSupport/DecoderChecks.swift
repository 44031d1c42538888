import EmulatorMath
import Testing
import WireFormat

/// Checks every decoder test shares: each proper prefix is `.truncated`, one octet more is
/// `.trailingBytes`, random and mutated input never traps.
public enum DecoderChecks {
    /// Every proper prefix of a valid encoding must fail with `.truncated`, never trap.
    public static func everyTruncationIsTruncated<T>(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation,
                                              _ decode: ([UInt8]) throws(DecodeError) -> T) {
        for n in 0..<bytes.count {
            do {
                _ = try decode(Array(bytes.prefix(n)))
                Issue.record("prefix of \(n) octets decoded", sourceLocation: sourceLocation)
            } catch {
                if case .truncated = error { continue }
                Issue.record("prefix of \(n) octets: \(error)", sourceLocation: sourceLocation)
            }
        }
    }

    /// One extra octet after a fixed layout must fail with `.trailingBytes(extra: 1)`.
    public static func extraOctetIsTrailing<T>(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation,
                                        _ decode: ([UInt8]) throws(DecodeError) -> T) {
        #expect(throws: DecodeError.trailingBytes(extra: 1), sourceLocation: sourceLocation) { _ = try decode(bytes + [0x00]) }
    }

    /// Random strings and random mutations of `valid` either decode or throw `DecodeError`
    /// (a trap would kill the test). Some mutations must decode (unless `someDecode` is false,
    /// for a `valid` that is deliberately not), or the loop only ever reached the decoder's first
    /// check. Returns how many decoded.
    @discardableResult
    public static func fuzz<T>(seed: UInt64, valid: [UInt8], iterations: Int = 3000, maxLength: Int = 64, someDecode: Bool = true,
                        sourceLocation: SourceLocation = #_sourceLocation,
                        _ decode: ([UInt8]) throws(DecodeError) -> T) -> Int {
        var rng = SplitMix64(seed: seed)
        var decoded = 0
        for k in 0..<iterations {
            var input: [UInt8]
            if k % 2 == 0 || valid.isEmpty {
                input = rng.bytes(Int.random(in: 0...maxLength, using: &rng))
            } else {
                input = valid
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    input[Int.random(in: 0..<input.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
                if Bool.random(using: &rng) { input = Array(input.prefix(Int.random(in: 0...input.count, using: &rng))) }
            }
            do {
                _ = try decode(input)
                decoded += 1
            } catch {
                _ = error  // a typed DecodeError: fine
            }
        }
        if someDecode && !valid.isEmpty && decoded == 0 {
            Issue.record("none of \(iterations) random and mutated inputs decoded", sourceLocation: sourceLocation)
        }
        return decoded
    }
}
