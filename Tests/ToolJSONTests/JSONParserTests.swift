import EmulatorMath
import Foundation
@testable import ToolJSON
import TestSupport
import Testing

/// The tool's JSON parser: what it accepts reads as RFC 8259 says (checked against
/// JSONSerialization on generated documents), and numbers keep their exact value.
struct JSONParserTests {
    static func parse(_ text: String) throws(ToolError) -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    @Test func stringsAndEscapes() throws {
        #expect(try Self.parse(#"["\u00e9\ud83d\ude00", "a\/b\\c\"d\b\f\n\r\t", "東京"]"#)
                == .array([.string("é😀"), .string("a/b\\c\"d\u{8}\u{C}\n\r\t"), .string("東京")]))
        #expect(try Self.parse("\u{FEFF}{}") == .object([:]))  // a byte order mark is tolerated
        #expect(try Self.parse(" \t\r\n{\"a\" : [ true , false , null ] }\n") == .object(["a": .array([.bool(true), .bool(false), .null])]))
    }

    @Test func numbersKeepTheirExactValue() throws {
        func number(_ text: String) throws -> JSONNumber {
            guard case .number(let n) = try Self.parse(text) else { throw ToolError.usage("not a number") }
            return n
        }
        #expect(try number("-0").integerText == "0")
        #expect(try number("1.5e3").integerText == "1500")
        #expect(try number("1500e-3").integerText == nil && number("1500e-3").double == 1.5)
        #expect(try number("0.000e5").integerText == "0")
        #expect(try number("120.00").integerText == "120")
        #expect(try number("18446744073709551615").integer(as: UInt64.self) == UInt64.max)
        #expect(try number("18446744073709551616").integer(as: UInt64.self) == nil)
        #expect(try number("-9223372036854775808").integer(as: Int64.self) == Int64.min)
        #expect(try number("-9223372036854775809").integer(as: Int64.self) == nil)
        #expect(try number("1e39").integerText == "1" + String(repeating: "0", count: 39))
        #expect(try number("1e40").integerText == nil && number("1e40").description == "1e40")
        #expect(try number("255").integer(as: UInt8.self) == 255 && number("256").integer(as: UInt8.self) == nil)
        #expect(try number("2.0") == JSONNumber(2))
        #expect(try number("4.9e-324").double == Double.leastNonzeroMagnitude)
    }

    /// Generated documents: JSONSerialization writes them, the parser reads the same values.
    @Test func agreesWithJSONSerialization() throws {
        var g = SplitMix64(seed: 3)
        func value(_ depth: Int) -> Any {
            switch g.below(depth > 3 ? 4 : 6) {
            case 0: return g.below(2) == 0
            case 1: return Int64(bitPattern: g.next()) >> Int64(g.below(63))
            case 2: return String((0..<g.below(12)).map { _ in Character(UnicodeScalar([0x41, 0x09, 0x22, 0x5C, 0xE9, 0x6771, 0x1F600, 0x01][g.below(8)])!) })
            case 3: return Double(Int64(bitPattern: g.next()) >> 20) / 1024
            case 4: return (0..<g.below(5)).map { _ in value(depth + 1) }
            default: return Dictionary(uniqueKeysWithValues: (0..<g.below(5)).map { k in ("k\(k)\u{9}", value(depth + 1)) })
            }
        }
        func same(_ a: Any, _ b: JSONValue) -> Bool {
            switch (a, b) {
            case (let x as Bool, .bool(let y)): return x == y
            case (let x as Int64, .number(let n)): return n.integer(as: Int64.self) == x
            case (let x as Double, .number(let n)): return n.double == x
            case (let x as String, .string(let y)): return x == y
            case (let x as [Any], .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(same)
            case (let x as [String: Any], .object(let y)): return x.count == y.count && x.allSatisfy { k, v in y[k].map { same(v, $0) } ?? false }
            default: return false
            }
        }
        for _ in 0..<300 {
            let doc: [String: Any] = ["v": value(0)]
            let data = try JSONSerialization.data(withJSONObject: doc)
            let parsed = try JSONValue.parse(data)
            #expect(same(doc, parsed), "\(String(decoding: data, as: UTF8.self))")
        }
    }
}
