import EmulatorMath
import Foundation
@testable import ToolJSON
import Testing

/// The one JSON writer and its number formatter: `%.Nf`'s digits without `String(format:)`,
/// RFC 8259 strings, null for what JSON cannot say, and the layout the tool has always printed.
struct JSONWriterTests {
    static func json(_ style: JSONWriter.Style = .spaced, _ body: (inout JSONWriter) -> Void) -> String {
        var w = JSONWriter(style: style)
        body(&w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The fast formatter gives `%.Nf`'s bytes: on random values of every magnitude, on exact
    /// ties (which go to the even neighbour), next to ties, and on signs and zeros.
    @Test func fixedDecimalsMatchPrintf() {
        var g = SplitMix64(seed: 7)
        var values: [Double] = [0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 0.625, 1.0005, 2.675, 1.005, 0.045, 1e-7, -1e-7, -0.0004,
                                0.049999999999999996, 1234567.891, 4503599627370495.5, 4503599627370497, 1e17, -1e22, 123.456e10,
                                Double.leastNonzeroMagnitude, -Double.leastNormalMagnitude, 0.1, 0.2, 0.3, 299_792_458]
        for _ in 0..<4000 {
            let bits = g.next()
            let mantissa = Double(bits >> 11) * 0x1p-53
            let exponent = Int(bits & 0x3F) - 30
            values.append((bits & 0x40 == 0 ? 1 : -1) * mantissa * pow(10, Double(exponent)))
            // Values exactly on or next to a tie at some number of decimals.
            let d = Int(bits >> 60) % 7
            let tie = (Double(Int(bits >> 20) % 100_000) + 0.5) / pow(10, Double(d))
            values += [tie, tie.nextUp, tie.nextDown]
        }
        for v in values {
            for decimals in 0...9 {
                let expected = String(format: "%.\(decimals)f", v)
                #expect(FixedDecimal.text(v, decimals) == expected, "\(v) with \(decimals) decimals")
                if FixedDecimal.text(v, decimals) != expected { return }
            }
        }
    }

    @Test func nonFiniteValues() {
        #expect(FixedDecimal.text(.nan, 3) == "nan")
        #expect(FixedDecimal.text(.infinity, 3) == "inf")
        #expect(FixedDecimal.text(-.infinity, 1) == "-inf")
        #expect(Self.json { $0.object { j in j.field("a", Double.nan, decimals: 4); j.field("b", Double.infinity, decimals: 2); j.field("c", -Double.infinity, decimals: 2) } }
                == "{\"a\": null, \"b\": null, \"c\": null}")
    }

    /// Every control character below U+0020, the quote and the backslash are escaped; the
    /// rest is UTF-8 as it is; JSONSerialization reads back the same string.
    @Test func stringsAreEscapedPerRFC8259() throws {
        let nasty = "tab\there\r\n\u{01}\u{1F}\u{7F}\"quote\" back\\slash \u{08}\u{0C} naïve 東京 🛰 \u{2028}"
        let text = Self.json { $0.object { j in j.field("s", nasty); j.key(text: nasty); j.value(1) } }
        #expect(text.contains("tab\\there\\r\\n\\u0001\\u001f\u{7F}\\\"quote\\\" back\\\\slash \\b\\f naïve"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["s"] as? String == nasty)
        #expect(object[nasty] as? Int == 1)
        for u in 0..<0x20 {
            let s = String(UnicodeScalar(UInt8(u)))
            let line = Self.json { $0.value(s) }
            #expect(!line.utf8.contains { $0 < 0x20 }, "U+\(u) is escaped")
            #expect(try JSONSerialization.jsonObject(with: Data("[\(line)]".utf8)) as? [String] == [s])
        }
    }

    @Test func layoutAndSeparators() {
        let body: (inout JSONWriter) -> Void = { j in
            j.object { j in
                j.field("n", -42)
                j.field("list", [1.5, 2.25], decimals: 2)
                j.field("nested", object: { j in
                    j.field("empty", array: { _ in })
                    j.field("none", Int?.none)
                    j.field("t", true)
                })
                j.key("hex")
                j.hexValue(0x6C37_6AB8, digits: 8)
            }
        }
        #expect(Self.json(.spaced, body) == "{\"n\": -42, \"list\": [1.50, 2.25], \"nested\": {\"empty\": [], \"none\": null, \"t\": true}, \"hex\": \"6C376AB8\"}")
        #expect(Self.json(.compact, body) == "{\"n\":-42,\"list\":[1.50,2.25],\"nested\":{\"empty\":[],\"none\":null,\"t\":true},\"hex\":\"6C376AB8\"}")
        #expect(Self.json { j in j.beginArray(); j.value(Int64.min); j.value(UInt64.max); j.endArray() } == "[-9223372036854775808, 18446744073709551615]")
    }
}
