/// A device address's type as HCI carries it (Core 6.0 Vol 4 Part E §7.8.12, §7.7.65.10):
/// Peer_Address_Type of LE Create Connection and the Enhanced connection events, Address_Type
/// of advertising reports. Some layouts allow only `public` and `random` (LE Connection
/// Complete, LE Set Advertising Parameters): their field lists say so.
public enum AddressType: UInt8, Sendable, Equatable, CaseIterable {
    case `public` = 0x00
    case random = 0x01
    /// The identity address of a peer the controller resolved, public.
    case publicIdentity = 0x02
    /// The identity address of a peer the controller resolved, random (static).
    case randomIdentity = 0x03

    /// `.random` or `.public`.
    public init(random: Bool) { self = random ? .random : .public }

    /// Whether the address is a random one (an odd type).
    public var isRandom: Bool { rawValue & 1 == 1 }
}
