/// What an accessory keeps of a bonded phone: its identity (address and IRK, to recognise it
/// behind a resolvable private address), the LE Secure Connections LTK (EDIV 0, Rand 0), and
/// whether the pairing was authenticated.
public struct Bond: Sendable, Equatable {
    /// The peer's identity address (or the address it paired from, if it gave no identity).
    public var peer: PairingAddress
    /// 16 octets, little-endian (as Identity Information carries it), if the peer gave it.
    public var peerIRK: [UInt8]?
    /// 16 octets in HCI order.
    public var longTermKey: [UInt8]
    public var authenticated: Bool
    /// The peer's Client Characteristic Configuration values by descriptor handle, kept across
    /// connections as Core 6.0 Vol 3 Part G §3.3.3.3 asks for bonded clients (only those set).
    public var configurations: [UInt16: UInt16]
    /// An LE legacy bond's LTK is asked for by its EDIV and Rand; a Secure Connections one by 0, 0.
    public var ediv: UInt16
    public var rand: UInt64

    public init(peer: PairingAddress, peerIRK: [UInt8]?, longTermKey: [UInt8], authenticated: Bool, configurations: [UInt16: UInt16] = [:],
                ediv: UInt16 = 0, rand: UInt64 = 0) {
        self.peer = peer
        self.peerIRK = peerIRK
        self.longTermKey = longTermKey
        self.authenticated = authenticated
        self.configurations = configurations
        self.ediv = ediv
        self.rand = rand
    }

    public init(_ result: PairingResult) {
        self.init(peer: result.peerAddress, peerIRK: result.peerIRK?.wire, longTermKey: result.longTermKey.wire, authenticated: result.isAuthenticated,
                  ediv: result.ediv, rand: result.rand)
    }

    /// Whether `address` is this peer: its identity address, or a resolvable private address
    /// its IRK resolves (Core 6.0 Vol 6 Part B §1.3.2.3: hash = ah(IRK, prand)).
    public func matches(_ address: PairingAddress) -> Bool {
        if address == peer { return true }
        guard let irk = peerIRK else { return false }
        return ResolvablePrivateAddress.resolves(address, irk: irk)
    }
}

/// Resolvable private addresses (Core 6.0 Vol 6 Part B §1.3.2.2–§1.3.2.3): a random address
/// whose two most significant bits are 01, `prand` (24 bits, the high half) and `hash`
/// (the low half) = ah(IRK, prand).
public enum ResolvablePrivateAddress {
    public static func isResolvable(_ a: PairingAddress) -> Bool { a.isRandom && (a.address >> 46) & 0b11 == 0b01 }

    /// Whether `irk` (16 octets, little-endian) resolves `a`.
    public static func resolves(_ a: PairingAddress, irk: [UInt8]) -> Bool {
        guard isResolvable(a), irk.count == 16 else { return false }
        let prand = UInt32(truncatingIfNeeded: a.address >> 24) & 0xFF_FFFF
        return SMPCrypto.ah(k: Key128(wire: irk), r: prand) == UInt32(truncatingIfNeeded: a.address) & 0xFF_FFFF
    }

    /// A fresh resolvable private address for `irk` from a 22-bit random part (as a device
    /// making one does: prand's top bits 01).
    public static func make(irk: [UInt8], random: UInt32) -> PairingAddress? {
        let prand = UInt64(random & 0x3F_FFFF) | 0x40_0000
        guard irk.count == 16 else { return nil }
        return PairingAddress(prand << 24 | UInt64(SMPCrypto.ah(k: Key128(wire: irk), r: UInt32(prand))), random: true)
    }
}
