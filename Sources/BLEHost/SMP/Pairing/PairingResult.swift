/// A device address as pairing uses it: the address and whether it is a random one (f5 and
/// f6 take the type octet, then the six address octets, §2.2.7).
public struct PairingAddress: Sendable, Equatable, Hashable {
    public var address: UInt64
    public var isRandom: Bool

    public init(_ address: UInt64, random: Bool) {
        self.address = address & 0xFFFF_FFFF_FFFF
        isRandom = random
    }

    /// Type then address, MSB-first (7 octets), as f5 and f6 take A1 and A2.
    var toolboxOctets: [UInt8] {
        [isRandom ? 1 : 0] + (0..<6).reversed().map { UInt8(truncatingIfNeeded: address >> UInt64(8 * $0)) }
    }
}

/// This device's identity, distributed in key distribution (IdKey): its IRK and identity
/// address (public, or static random).
public struct PairingIdentity: Sendable, Equatable {
    /// 16 octets, in the order Identity Information carries it (little-endian).
    public var irk: [UInt8]
    public var address: PairingAddress

    public init(irk: [UInt8], address: PairingAddress) {
        self.irk = irk
        self.address = address
    }
}

/// What a finished pairing leaves: the keys a bond stores.
public struct PairingResult: Sendable, Equatable {
    /// The LTK in the order HCI carries it (LE Enable Encryption, LE Long Term Key Request
    /// Reply), with EDIV 0 and Rand 0 as LE Secure Connections uses it.
    public var longTermKey: [UInt8]
    /// The peer's identity address if it distributed one, else the address it connected from.
    public var peerAddress: PairingAddress
    /// The peer's IRK (little-endian), if it distributed its identity.
    public var peerIRK: [UInt8]?
    public var method: PairingMethod
    /// Both asked for bonding: the keys are to be kept.
    public var bonded: Bool
    public var keySize: UInt8
    /// LE legacy pairing's distributed LTK is named by EDIV and Rand (LE Secure Connections': 0, 0).
    public var ediv: UInt16 = 0
    public var rand: UInt64 = 0
    /// LE legacy pairing (not LE Secure Connections).
    public var legacy = false
    public var isAuthenticated: Bool { method.isAuthenticated }
}
