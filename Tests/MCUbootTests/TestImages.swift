import EmulatorMath
@testable import MCUboot
import TestSupport

/// Builds MCUboot images the way imgtool lays them out (header padded with 0xFF to hdr_size,
/// payload, optional protected TLV area, then the 0x6907 area with the SHA-256 TLV).
enum TestImages {
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16((v >> 16) & 0xFFFF) }

    /// Deterministic pseudo-random octets.
    static func payload(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        return rng.bytes(count)
    }

    static func make(payload: [UInt8], headerSize: Int = 0x200, version: (UInt8, UInt8, UInt16, UInt32) = (1, 2, 3, 4),
                     protectedTLVs: [(UInt16, [UInt8])] = [], magic: UInt32 = MCUbootImageHeader.magic, includeHash: Bool = true) -> [UInt8] {
        let protectedArea: [UInt8] = protectedTLVs.isEmpty ? [] : {
            let body = protectedTLVs.flatMap { le16(Int($0.0)) + le16($0.1.count) + $0.1 }
            return le16(0x6908) + le16(body.count + 4) + body
        }()
        var header = le32(Int(magic)) + le32(0) + le16(headerSize) + le16(protectedArea.count) + le32(payload.count) + le32(0)
        header += [version.0, version.1] + le16(Int(version.2)) + le32(Int(version.3)) + le32(0)
        header += [UInt8](repeating: 0xFF, count: headerSize - header.count)
        let hashed = header + payload + protectedArea
        let tlvs: [UInt8] = includeHash ? le16(0x10) + le16(32) + SHA256.hash(hashed) : le16(0x01) + le16(4) + [1, 2, 3, 4]
        return hashed + le16(0x6907) + le16(tlvs.count + 4) + tlvs
    }
}
