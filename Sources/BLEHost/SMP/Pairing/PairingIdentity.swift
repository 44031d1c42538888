/// This device's identity, distributed in key distribution (IdKey, Core 6.0 Vol 3 Part H
/// §3.6.4–§3.6.5): its IRK and identity address (public, or static random).
public struct PairingIdentity: Sendable, Equatable {
    public var irk: Key128
    public var address: PairingAddress

    public init(irk: Key128, address: PairingAddress) {
        self.irk = irk
        self.address = address
    }
}
