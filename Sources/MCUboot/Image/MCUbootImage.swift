import WireFormat

/// A checked MCUboot image file (MCUboot `boot/bootutil/include/bootutil/image.h` and
/// `docs/design.md` "Image Format"; imgtool `imgtool/image.py`):
///
///     [header, padded to hdr_size][payload, img_size]
///     [protected TLVs: info 0x6908 + TLVs, protect_tlv_size octets, optional]
///     [TLVs: info 0x6907 {magic u16, tlv_tot u16 (includes the info)} + TLVs]
///     [anything after: padding to the slot size, trailer]
///
/// The check refuses what a bootloader would refuse: wrong magic, a header or payload that the
/// file does not hold, a missing or malformed TLV area, no SHA-256 TLV, or a SHA-256 TLV that
/// does not match SHA-256(header + payload + protected TLVs). Signatures are not checked (that
/// needs the board's public key).
public struct MCUbootImage: Sendable {
    /// The whole file, as it will be uploaded.
    public let bytes: [UInt8]
    public let header: MCUbootImageHeader
    /// TLVs of the protected area (inside the hash), in order.
    public let protectedTLVs: [MCUbootTLV]
    /// TLVs of the unprotected area, in order.
    public let tlvs: [MCUbootTLV]
    /// The image hash (the SHA-256 TLV, verified); what MCUboot's image list reports as "hash".
    public let hash: [UInt8]
    /// Offset just past the unprotected TLV area; `bytes.count` may be larger (slot padding).
    public let end: Int

    public init(bytes: [UInt8]) throws(MCUbootImageError) {
        let header = try MCUbootImageHeader(parsing: bytes)
        guard Int(header.headerSize) >= MCUbootImageHeader.size else { throw .badHeaderSize(header.headerSize) }
        let payloadEnd = Int(header.headerSize) + Int(header.imageSize)
        guard payloadEnd <= bytes.count else { throw .truncated(needed: payloadEnd, size: bytes.count) }

        var offset = payloadEnd
        var protected: [MCUbootTLV] = []
        if header.protectedTLVSize > 0 {
            protected = try Self.area(bytes, at: offset, magic: MCUbootTLV.protectedInfoMagic, expectedSize: Int(header.protectedTLVSize))
            offset += Int(header.protectedTLVSize)
        }
        let hashedEnd = offset
        let main = try Self.area(bytes, at: offset, magic: MCUbootTLV.infoMagic, expectedSize: nil)
        offset += Self.areaSize(bytes, at: offset)

        guard let stored = main.first(where: { $0.type == MCUbootTLV.sha256 })?.value, stored.count == 32 else { throw .missingHash }
        let computed = SHA256.hash(bytes[0..<hashedEnd])
        guard computed == stored else { throw .hashMismatch(stored: stored, computed: computed) }

        self.bytes = bytes
        self.header = header
        self.protectedTLVs = protected
        self.tlvs = main
        self.hash = stored
        self.end = offset
    }

    /// tlv_tot of the info header at `offset` (already validated by `area`).
    private static func areaSize(_ b: [UInt8], at offset: Int) -> Int {
        var r = ByteReader(b[(offset + 2)...])
        return Int(checkedU16(&r, "it_tlv_tot"))
    }

    /// A little-endian 16-bit field whose octets the caller has checked are there.
    private static func checkedU16(_ r: inout ByteReader, _ field: StaticString) -> UInt16 {
        (try? r.u16(field)) ?? 0
    }

    /// Parses one TLV area: the 4-octet info header `{magic, tlv_tot}` and the TLVs filling it.
    private static func area(_ b: [UInt8], at offset: Int, magic: UInt16, expectedSize: Int?) throws(MCUbootImageError) -> [MCUbootTLV] {
        guard offset + 4 <= b.count else { throw .truncated(needed: offset + 4, size: b.count) }
        var info = ByteReader(b[offset..<(offset + 4)])
        let found = checkedU16(&info, "it_magic")
        guard found == magic else { throw .missingTLVInfo(offset: offset, found: found) }
        let total = Int(checkedU16(&info, "it_tlv_tot"))
        guard total >= 4 else { throw .badTLVArea(offset: offset, reason: "size \(total) is smaller than its 4-byte info header") }
        if let e = expectedSize, e != total {
            throw .badTLVArea(offset: offset, reason: "size \(total) disagrees with the header's protected TLV size \(e)")
        }
        let end = offset + total
        guard end <= b.count else { throw .truncated(needed: end, size: b.count) }
        var tlvs: [MCUbootTLV] = []
        var r = ByteReader(b[(offset + 4)..<end])
        while !r.isAtEnd {
            let p = offset + 4 + r.offset
            guard r.remaining >= 4 else { throw .badTLVArea(offset: p, reason: "TLV header runs past the area") }
            let type = checkedU16(&r, "it_type")
            let len = Int(checkedU16(&r, "it_len"))
            guard let value = try? r.octets(len, "TLV value") else {
                throw .badTLVArea(offset: p, reason: "TLV 0x\(String(type, radix: 16)) of \(len) bytes runs past the area")
            }
            tlvs.append(MCUbootTLV(type: type, value: Array(value)))
        }
        return tlvs
    }
}
