import EmulatorMath
import Testing
@testable import MCUboot
import TestSupport

struct CBORTests {
    @Test func knownEncodings() {
        #expect(CBOREncoder.encode(.map(["off": .int(0)])) == [0xA1, 0x63, 0x6F, 0x66, 0x66, 0x00])
        #expect(CBOREncoder.encode(.map([])) == [0xA0])
        #expect(CBOREncoder.encode(.int(23)) == [0x17])
        #expect(CBOREncoder.encode(.int(24)) == [0x18, 0x18])
        #expect(CBOREncoder.encode(.int(1000)) == [0x19, 0x03, 0xE8])
        #expect(CBOREncoder.encode(.int(1_000_000)) == [0x1A, 0x00, 0x0F, 0x42, 0x40])
        #expect(CBOREncoder.encode(.unsigned(1 << 40)) == [0x1B, 0, 0, 0x01, 0, 0, 0, 0, 0])
        #expect(CBOREncoder.encode(.int(-1)) == [0x20])
        #expect(CBOREncoder.encode(.int(-1000)) == [0x39, 0x03, 0xE7])
        #expect(CBOREncoder.encode(.bytes([1, 2])) == [0x42, 1, 2])
        #expect(CBOREncoder.encode(.text("rc")) == [0x62, 0x72, 0x63])
        #expect(CBOREncoder.encode(.array([.bool(true), .bool(false), .null])) == [0x83, 0xF5, 0xF4, 0xF6])
    }

    @Test func roundTrips() throws {
        let values: [CBORValue] = [
            .int(0), .int(-24), .int(-25), .int(Int.max), .unsigned(UInt64.max), .negative(UInt64.max),
            .bytes([]), .bytes(Array(repeating: 7, count: 300)), .text(""), .text("héllo"),
            .map(["off": .int(4096), "data": .bytes(TestImages.payload(70_000)), "sha": .bytes(Array(repeating: 1, count: 32))]),
            .map(["images": .array([.map(["slot": .int(0), "version": .text("1.2.3"), "bootable": .bool(true)])])]),
        ]
        for v in values {
            #expect(try CBORDecoder.decode(CBOREncoder.encode(v)) == v)
            #expect(try CBORDecoder.decode(CBOREncoder.encode(v, indefiniteLengthMaps: true)) == v)
        }
    }

    /// MCUboot's zcbor writes `{"rc":0,"off":512}` with an indefinite-length map.
    @Test func decodesIndefiniteLengthLikeZcbor() throws {
        let bytes: [UInt8] = [0xBF, 0x62, 0x72, 0x63, 0x00, 0x63, 0x6F, 0x66, 0x66, 0x19, 0x02, 0x00, 0xFF]
        let v = try CBORDecoder.decode(bytes)
        #expect(v["rc"]?.intValue == 0)
        #expect(v["off"]?.intValue == 512)
        // Chunked strings: (_ h'01' h'0203') and (_ "a" "b").
        #expect(try CBORDecoder.decode([0x5F, 0x41, 1, 0x42, 2, 3, 0xFF]) == .bytes([1, 2, 3]))
        #expect(try CBORDecoder.decode([0x7F, 0x61, 0x61, 0x61, 0x62, 0xFF]) == .text("ab"))
    }

    @Test func typedErrors() {
        #expect(throws: CBORError.truncated(offset: 1)) { try CBORDecoder.decode([0xA1]) }
        #expect(throws: CBORError.truncated(offset: 3)) { try CBORDecoder.decode([0x45, 1, 2]) }
        #expect(throws: CBORError.trailingBytes(offset: 1)) { try CBORDecoder.decode([0x00, 0x00]) }
        #expect(throws: CBORError.nonTextKey(offset: 1)) { try CBORDecoder.decode([0xA1, 0x01, 0x02]) }
        #expect(throws: CBORError.unsupported(initialByte: 0xFB, offset: 0)) { try CBORDecoder.decode([0xFB, 0, 0, 0, 0, 0, 0, 0, 0]) }
        #expect(throws: CBORError.unsupported(initialByte: 0xC1, offset: 0)) { try CBORDecoder.decode([0xC1, 0x00]) }
        #expect(throws: CBORError.unsupported(initialByte: 0xFF, offset: 0)) { try CBORDecoder.decode([0xFF]) }
        #expect(throws: CBORError.invalidUTF8(offset: 0)) { try CBORDecoder.decode([0x62, 0xC3, 0x28]) }
        #expect(throws: CBORError.tooDeep(offset: 17)) { try CBORDecoder.decode([UInt8](repeating: 0x81, count: 40) + [0]) }
        // A huge announced length is truncation, not an allocation.
        #expect(throws: CBORError.truncated(offset: 9)) { try CBORDecoder.decode([0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(throws: CBORError.truncated(offset: 5)) { try CBORDecoder.decode([0x9A, 0xFF, 0xFF, 0xFF, 0xFF]) }
    }

    /// Every prefix of a valid item is refused with a typed error; random bytes and mutations
    /// of a valid item are refused, or decode to a value that encodes to an item that decodes to
    /// the same value (both map encodings). Some of the random inputs must decode, so the round
    /// trip is exercised at all.
    @Test func garbageIsRefusedOrRoundTrips() {
        let valid = CBOREncoder.encode(.map(["images": .array([.map(["slot": .int(0), "hash": .bytes(Array(repeating: 9, count: 32))])])]), indefiniteLengthMaps: true)
        for n in 0..<valid.count { #expect(throws: CBORError.self) { try CBORDecoder.decode(Array(valid[0..<n])) } }
        var rng = SplitMix64(seed: 99)
        var decoded = 0
        for k in 0..<5_000 {
            var bytes = k % 2 == 0 ? rng.bytes(rng.below(24)) : valid
            if k % 2 == 1 { bytes[rng.below(bytes.count)] = rng.byte() }
            guard let value = try? CBORDecoder.decode(bytes) else { continue }
            decoded += 1
            #expect((try? CBORDecoder.decode(CBOREncoder.encode(value))) == value, "\(bytes)")
            #expect((try? CBORDecoder.decode(CBOREncoder.encode(value, indefiniteLengthMaps: true))) == value, "\(bytes)")
        }
        #expect(decoded > 100)
    }
}
