/// The roles a controller can take in CS (`Roles_Supported`, Core 6.0 Vol 4 Part E §7.8.130:
/// bit 0 initiator, bit 1 reflector). Unknown (RFU) bits are kept so that a decoded value
/// re-encodes to the same octet.
public struct CSRoles: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let initiator = CSRoles(rawValue: 1 << 0)
    public static let reflector = CSRoles(rawValue: 1 << 1)

    /// Whether the controller can take `role`.
    @inline(__always) public func supports(_ role: CSRole) -> Bool {
        contains(role == .initiator ? .initiator : .reflector)
    }
}
