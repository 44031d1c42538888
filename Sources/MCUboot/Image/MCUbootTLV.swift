/// One entry of an image's TLV area (`struct image_tlv` in MCUboot `bootutil/image.h`):
/// type and length are little-endian 16-bit, then the value.
public struct MCUbootTLV: Equatable, Sendable {
    /// IMAGE_TLV_INFO_MAGIC: the unprotected TLV area.
    public static let infoMagic: UInt16 = 0x6907
    /// IMAGE_TLV_PROT_INFO_MAGIC: the protected TLV area (covered by the hash).
    public static let protectedInfoMagic: UInt16 = 0x6908
    /// IMAGE_TLV_SHA256: SHA-256 over header, payload and protected TLVs.
    public static let sha256: UInt16 = 0x10

    public var type: UInt16
    public var value: [UInt8]

    public init(type: UInt16, value: [UInt8]) {
        self.type = type
        self.value = value
    }
}
