/// What a finished pairing leaves: the keys a bond stores.
public struct PairingResult: Sendable, Equatable {
    /// The key the link is encrypted with from now on. LE Secure Connections: the LTK of f5
    /// (EDIV 0, Rand 0). LE legacy pairing: the LTK the responder distributed (EncKey), named
    /// by `ediv` and `rand`; without one, the STK, which no bond keeps (`bonded` is false).
    public var longTermKey: Key128
    /// The peer's identity address if it distributed one, else the address it connected from.
    public var peerAddress: PairingAddress
    /// The peer's IRK, if it distributed its identity.
    public var peerIRK: Key128?
    public var method: PairingMethod
    /// Both asked for bonding (and, in legacy pairing, an LTK was distributed): keep the keys.
    public var bonded: Bool
    public var keySize: UInt8
    public var ediv: UInt16 = 0
    public var rand: UInt64 = 0
    /// LE legacy pairing (not LE Secure Connections).
    public var legacy = false
    public var isAuthenticated: Bool { method.isAuthenticated }
}
