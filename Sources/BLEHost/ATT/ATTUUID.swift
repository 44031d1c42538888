import ReflectorFirmware

/// An attribute type as ATT carries it (Core 6.0 Vol 3 Part F §3.2.1): a 16-bit Bluetooth
/// UUID, or a full 128-bit one, both little-endian on the wire.
public enum ATTUUID: Hashable, Sendable {
    case uuid16(UInt16)
    /// The 16 octets as on the wire (least significant first).
    case uuid128([UInt8])

    /// GATT's attribute types (Vol 3 Part G §3): primary service, include, characteristic,
    /// client characteristic configuration.
    public static let primaryService = ATTUUID.uuid16(0x2800)
    public static let characteristic = ATTUUID.uuid16(0x2803)
    public static let clientCharacteristicConfiguration = ATTUUID.uuid16(0x2902)

    /// The octets on the wire (2 or 16).
    public var octets: [UInt8] {
        switch self {
        case .uuid16(let v): [UInt8(v & 0xFF), UInt8(v >> 8)]
        case .uuid128(let b): b.count == 16 ? b : [UInt8](repeating: 0, count: 16)
        }
    }

    /// A UUID of 2 or 16 octets; any other length is no UUID.
    public init?(octets: some Collection<UInt8>) {
        let b = Array(octets)
        switch b.count {
        case 2: self = .uuid16(UInt16(b[0]) | UInt16(b[1]) << 8)
        case 16: self = .uuid128(b)
        default: return nil
        }
    }
}
