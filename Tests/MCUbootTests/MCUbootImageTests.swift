import Testing
@testable import MCUboot

struct MCUbootImageTests {
    @Test func syntheticImagePasses() throws {
        let payload = TestImages.payload(1000)
        let bytes = TestImages.make(payload: payload)
        #expect(bytes.count == 512 + 1000 + 40)  // the layout imgtool gives without a key
        let image = try MCUbootImage(bytes: bytes)
        #expect(image.header.headerSize == 0x200)
        #expect(image.header.imageSize == 1000)
        #expect(image.header.version.description == "1.2.3.4")
        #expect(image.tlvs.map(\.type) == [0x10])
        #expect(image.hash == SHA256.hash(bytes[0..<1512]))
        #expect(image.end == bytes.count)
    }

    @Test func protectedTLVsAreHashed() throws {
        let bytes = TestImages.make(payload: TestImages.payload(300), protectedTLVs: [(0x50, [7, 0, 0, 0])])
        let image = try MCUbootImage(bytes: bytes)
        #expect(image.header.protectedTLVSize == 12)
        #expect(image.protectedTLVs == [MCUbootTLV(type: 0x50, value: [7, 0, 0, 0])])
        #expect(image.hash == SHA256.hash(bytes[0..<(512 + 300 + 12)]))
    }

    /// Slot padding after the TLVs (imgtool --pad) is allowed.
    @Test func trailingPaddingIsAllowed() throws {
        let bytes = TestImages.make(payload: TestImages.payload(100)) + [UInt8](repeating: 0xFF, count: 64)
        #expect(try MCUbootImage(bytes: bytes).end == bytes.count - 64)
    }

    @Test func flippedPayloadByteFailsTheHash() {
        var bytes = TestImages.make(payload: TestImages.payload(1000))
        bytes[700] ^= 0x40
        #expect {
            try MCUbootImage(bytes: bytes)
        } throws: { e in
            guard case .hashMismatch = e as? MCUbootImageError else { return false }
            return true
        }
    }

    @Test func specificReasons() {
        let good = TestImages.make(payload: TestImages.payload(1000))
        #expect(throws: MCUbootImageError.badMagic(found: 0x464C_457F)) { try MCUbootImage(bytes: [0x7F, 0x45, 0x4C, 0x46] + Array(good[4...])) }
        #expect(throws: MCUbootImageError.tooShort(size: 10)) { try MCUbootImage(bytes: Array(good[0..<10])) }
        #expect(throws: MCUbootImageError.truncated(needed: 1512, size: 1000)) { try MCUbootImage(bytes: Array(good[0..<1000])) }
        #expect(throws: MCUbootImageError.truncated(needed: 1552, size: 1540)) { try MCUbootImage(bytes: Array(good[0..<1540])) }
        var bigger = good
        bigger[12...15] = [0x00, 0x10, 0x00, 0x00]  // img_size 4096 > file
        #expect(throws: MCUbootImageError.truncated(needed: 512 + 4096, size: 1552)) { try MCUbootImage(bytes: bigger) }
        var smallHeader = good
        smallHeader[8...9] = [16, 0]
        #expect(throws: MCUbootImageError.badHeaderSize(16)) { try MCUbootImage(bytes: smallHeader) }
        var noInfo = good
        noInfo[1512] = 0x00
        #expect(throws: MCUbootImageError.missingTLVInfo(offset: 1512, found: 0x6900)) { try MCUbootImage(bytes: noInfo) }
        #expect(throws: MCUbootImageError.missingHash) { try MCUbootImage(bytes: TestImages.make(payload: [1, 2, 3], includeHash: false)) }
        #expect(throws: MCUbootImageError.badMagic(found: MCUbootImageHeader.magicV1)) {
            try MCUbootImage(bytes: TestImages.make(payload: [1], magic: MCUbootImageHeader.magicV1))
        }
        var overrun = good
        overrun[1518...1519] = [0xFF, 0x00]  // the SHA-256 TLV claims 255 octets
        #expect(throws: MCUbootImageError.badTLVArea(offset: 1516, reason: "TLV 0x10 of 255 bytes runs past the area")) { try MCUbootImage(bytes: overrun) }
    }

    @Test func reasonsReadWell() {
        #expect(MCUbootImageError.badMagic(found: 0x464C457F).description == "not an MCUboot image: header magic 0x464c457f is not 0x96f3b83d (sign the binary with imgtool first)")
    }

    /// No prefix of an image and no image with one octet corrupted passes the check: the header
    /// and payload are hashed, and the TLV areas either break or disagree with the hash.
    @Test func everyPrefixAndCorruptionIsRefused() throws {
        let good = TestImages.make(payload: TestImages.payload(64), headerSize: 32, protectedTLVs: [(0x50, [1])])
        _ = try MCUbootImage(bytes: good)
        for n in 0..<good.count { #expect(throws: MCUbootImageError.self, "prefix \(n)") { try MCUbootImage(bytes: Array(good[0..<n])) } }
        for i in 0..<good.count {
            var b = good
            b[i] ^= 0xFF
            #expect(throws: MCUbootImageError.self, "octet \(i) corrupted") { try MCUbootImage(bytes: b) }
        }
    }
}
