/// Own_Address_Type (Core 6.0 Vol 4 Part E §7.8.5, §7.8.12): the address a controller uses for
/// its own advertising, scanning or connecting.
public enum OwnAddressType: UInt8, Sendable, Equatable, CaseIterable {
    case `public` = 0x00
    /// The address set with LE Set Random Address.
    case random = 0x01
    /// A resolvable private address from the resolving list, else the public address.
    case resolvableOrPublic = 0x02
    /// A resolvable private address from the resolving list, else the random address.
    case resolvableOrRandom = 0x03

    /// Whether the controller needs a random address set (LE Set Random Address) for it.
    public var needsRandomAddress: Bool { rawValue & 1 == 1 }
}
