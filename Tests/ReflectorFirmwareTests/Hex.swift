@testable import ReflectorFirmware

/// Test-side hex helpers: sample data in the spec and its sources is written as hex, MSO first.
enum Hex {
    static func bytes(_ s: String) -> [UInt8] {
        let digits = s.filter { !$0.isWhitespace }
        var out: [UInt8] = []
        var it = digits.makeIterator()
        while let a = it.next(), let b = it.next() { out.append(UInt8(String([a, b]), radix: 16)!) }
        return out
    }

    static func block(_ s: String) -> Block128 { Block128(octets: bytes(s)) }

    static func string(_ b: some Sequence<UInt8>) -> String {
        b.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }
}
