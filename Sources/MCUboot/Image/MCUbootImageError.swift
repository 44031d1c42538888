/// Why a file is not an MCUboot image this tool will flash, in words a user can act on.
public enum MCUbootImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Shorter than the 32-octet header.
    case tooShort(size: Int)
    /// The first four octets are not IMAGE_MAGIC.
    case badMagic(found: UInt32)
    /// ih_hdr_size smaller than the header itself.
    case badHeaderSize(UInt16)
    /// The file ends before header + payload (+ TLV area) does.
    case truncated(needed: Int, size: Int)
    /// No TLV info header (0x6907, or 0x6908 when protect_tlv_size says so) where it belongs.
    case missingTLVInfo(offset: Int, found: UInt16)
    /// A TLV runs past its area, or the areas disagree with the header.
    case badTLVArea(offset: Int, reason: String)
    /// No IMAGE_TLV_SHA256 entry, or one whose length is not 32.
    case missingHash
    /// The SHA-256 TLV does not match the image.
    case hashMismatch(stored: [UInt8], computed: [UInt8])

    public var description: String {
        switch self {
        case .tooShort(let n): return "not an MCUboot image: \(n) bytes is shorter than the 32-byte image header"
        case .badMagic(let m):
            if m == MCUbootImageHeader.magicV1 { return "not a supported MCUboot image: header magic 0x96f3b83c is the obsolete v1 format" }
            return "not an MCUboot image: header magic 0x\(hex32(m)) is not 0x96f3b83d (sign the binary with imgtool first)"
        case .badHeaderSize(let h): return "bad MCUboot image: header size \(h) is smaller than 32"
        case let .truncated(need, size): return "bad MCUboot image: truncated, the header needs \(need) bytes but the file has \(size)"
        case let .missingTLVInfo(o, f): return "bad MCUboot image: no TLV info at offset \(o) (found 0x\(String(f, radix: 16)), expected 0x6907)"
        case let .badTLVArea(o, r): return "bad MCUboot image: TLV area at offset \(o): \(r)"
        case .missingHash: return "bad MCUboot image: no SHA-256 TLV"
        case .hashMismatch: return "bad MCUboot image: SHA-256 mismatch, the image is corrupt or was modified after signing"
        }
    }

    private func hex32(_ v: UInt32) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 8 - s.count)) + s
    }
}
