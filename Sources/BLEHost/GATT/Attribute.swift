/// One attribute of a GATT server's database (Core 6.0 Vol 3 Part F §3.2, Part G §3): its
/// handle, type, value and what a client may do with it.
public struct Attribute: Equatable, Sendable {
    public struct Permissions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let read = Permissions(rawValue: 1 << 0)
        public static let write = Permissions(rawValue: 1 << 1)
        /// Reading or writing needs an encrypted link (Insufficient Encryption otherwise).
        public static let encrypted = Permissions(rawValue: 1 << 2)
        /// Reading or writing needs a link encrypted with an authenticated key (MITM protection:
        /// Passkey Entry or Numeric Comparison); Insufficient Authentication otherwise.
        public static let authenticated = Permissions(rawValue: 1 << 3)
    }

    public var handle: UInt16
    public var type: ATTUUID
    public var value: [UInt8]
    public var permissions: Permissions

    public init(handle: UInt16, type: ATTUUID, value: [UInt8], permissions: Permissions) {
        self.handle = handle
        self.type = type
        self.value = value
        self.permissions = permissions
    }
}

/// Characteristic properties (Vol 3 Part G §3.3.1.1), the first octet of a declaration.
public struct CharacteristicProperties: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let read = CharacteristicProperties(rawValue: 0x02)
    public static let writeWithoutResponse = CharacteristicProperties(rawValue: 0x04)
    public static let write = CharacteristicProperties(rawValue: 0x08)
    public static let notify = CharacteristicProperties(rawValue: 0x10)
    public static let indicate = CharacteristicProperties(rawValue: 0x20)
}
