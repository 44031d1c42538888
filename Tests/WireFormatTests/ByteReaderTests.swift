import Testing
import WireFormat

@Suite struct ByteReaderTests {
    @Test func littleEndianIsTheDefault() throws {
        var r = ByteReader([0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0xAB, 0xCD, 0xEF])
        #expect(try r.u16("a") == 0x1234)
        #expect(try r.u32("b") == 0x1234_5678)
        #expect(try r.u24("c") == 0xEFCD_AB)
        #expect(r.isAtEnd && r.offset == 9)
    }

    @Test func bigEndianOnRequest() throws {
        var r = ByteReader([0x12, 0x34, 0x12, 0x34, 0x56, 0x78, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08])
        #expect(try r.u16("a", endianness: .big) == 0x1234)
        #expect(try r.readInteger("b", endianness: .big, as: UInt32.self) == 0x1234_5678)
        #expect(try r.readInteger("c", endianness: .big, as: Int64.self) == 0x0102_0304_0506_0708)
    }

    @Test func narrowWidthsAndSignedValues() throws {
        var r = ByteReader([0xFF, 0xFE, 0x01, 0x02, 0x03, 0x04, 0x05, 0x80])
        #expect(try r.i16("a") == -257)
        #expect(try r.uint(5, "b") == 0x05_0403_0201)
        #expect(try r.i8("c") == -128)
    }

    @Test func shortInputThrowsTruncatedNamingTheField() {
        var r = ByteReader([0x01, 0x02, 0x03])
        #expect(throws: DecodeError.truncated(field: "Length", needed: 1)) { try r.u32("Length") }
        #expect(r.offset == 0)
        #expect(throws: DecodeError.trailingBytes(extra: 3)) { try r.expectEnd() }
    }

    @Test func slicesKeepTheirStorageAndCountOffsetsFromTheirStart() throws {
        let bytes: [UInt8] = [9, 9, 0xAA, 0xBB, 0xCC]
        var r = ByteReader(bytes[2...])
        #expect(try r.u8("a") == 0xAA)
        #expect(r.offset == 1)
        #expect(Array(r.unread) == [0xBB, 0xCC])
        #expect(Array(try r.octets(2, "b")) == [0xBB, 0xCC])
    }

    @Test func writerMirrorsTheReader() {
        var w = ByteWriter()
        w.u16(0x1234)
        w.u16(0x1234, endianness: .big)
        w.u24(0xABCDEF)
        w.writeInteger(Int64(-2), endianness: .big)
        w.uint(0x05_0403_0201, 5)
        #expect(w.bytes == [0x34, 0x12, 0x12, 0x34, 0xEF, 0xCD, 0xAB, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE, 1, 2, 3, 4, 5])
        w.setInteger(UInt16(0xBEEF), at: 0)
        w.setInteger(UInt16(0xBEEF), at: 2, endianness: .big)
        #expect(Array(w.bytes.prefix(4)) == [0xEF, 0xBE, 0xBE, 0xEF])
    }

    @Test func appendingInPlace() {
        var buffer: [UInt8] = [1, 2]
        ByteWriter.append(to: &buffer) { $0.u32(0x0A0B_0C0D, endianness: .big) }
        #expect(buffer == [1, 2, 0x0A, 0x0B, 0x0C, 0x0D])
    }
}
