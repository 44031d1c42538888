import WireFormat

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
        var r = ByteReader(bytes[..<Self.size])
        let fields: (magic: UInt32, load: UInt32, header: UInt16, protected: UInt16, image: UInt32, flags: UInt32,
                     major: UInt8, minor: UInt8, revision: UInt16, build: UInt32)
        do throws(DecodeError) {
            fields = (try r.u32("ih_magic"), try r.u32("ih_load_addr"), try r.u16("ih_hdr_size"), try r.u16("ih_protect_tlv_size"),
                      try r.u32("ih_img_size"), try r.u32("ih_flags"), try r.u8("iv_major"), try r.u8("iv_minor"),
                      try r.u16("iv_revision"), try r.u32("iv_build_num"))
        } catch {
            throw .tooShort(size: bytes.count)  // not reached: the length is checked
        }
        guard fields.magic == Self.magic else { throw .badMagic(found: fields.magic) }
        loadAddress = fields.load
        headerSize = fields.header
        protectedTLVSize = fields.protected
        imageSize = fields.image
        flags = fields.flags
        version = MCUbootImageVersion(major: fields.major, minor: fields.minor, revision: fields.revision, build: fields.build)
    }
}
