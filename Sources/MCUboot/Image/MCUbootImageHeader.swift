/// `struct image_header` (MCUboot `boot/bootutil/include/bootutil/image.h`): the 32 little-endian
/// octets at the start of every image. The payload starts at `headerSize` (the header is padded).
public struct MCUbootImageHeader: Equatable, Sendable {
    /// IMAGE_MAGIC.
    public static let magic: UInt32 = 0x96F3_B83D
    /// IMAGE_MAGIC_V1, the pre-1.0 layout, which this tool refuses.
    public static let magicV1: UInt32 = 0x96F3_B83C
    /// The octets of the fixed part.
    public static let size = 32

    public var loadAddress: UInt32
    /// ih_hdr_size: offset of the payload.
    public var headerSize: UInt16
    /// ih_protect_tlv_size: size of the protected TLV area including its info header, or 0.
    public var protectedTLVSize: UInt16
    /// ih_img_size: payload octets.
    public var imageSize: UInt32
    /// ih_flags (IMAGE_F_*).
    public var flags: UInt32
    public var version: MCUbootImageVersion

    /// Reads the fixed header; checks only that the octets are there and the magic is right.
    public init(parsing bytes: [UInt8]) throws(MCUbootImageError) {
        guard bytes.count >= Self.size else { throw .tooShort(size: bytes.count) }
        let m = Self.le32(bytes, 0)
        guard m == Self.magic else { throw .badMagic(found: m) }
        loadAddress = Self.le32(bytes, 4)
        headerSize = Self.le16(bytes, 8)
        protectedTLVSize = Self.le16(bytes, 10)
        imageSize = Self.le32(bytes, 12)
        flags = Self.le32(bytes, 16)
        version = MCUbootImageVersion(major: bytes[20], minor: bytes[21], revision: Self.le16(bytes, 22), build: Self.le32(bytes, 24))
    }

    static func le16(_ b: [UInt8], _ o: Int) -> UInt16 { UInt16(b[o]) | UInt16(b[o + 1]) << 8 }
    static func le32(_ b: [UInt8], _ o: Int) -> UInt32 {
        UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 3]) << 24
    }
}
