/// A connection's peer device address as an LE (Enhanced) Connection Complete event gives it
/// (Peer_Address_Type bit 0: random; Core 6.0 Vol 4 Part E §7.7.65.1), most significant octet first.
public struct PeerAddress: Sendable, Equatable, CustomStringConvertible {
    /// The six octets, most significant first (as written `C0:FF:EE:00:00:01`).
    public var bytes: [UInt8]
    public var random: Bool

    public init(bytes: [UInt8], random: Bool) {
        self.bytes = bytes
        self.random = random
    }

    /// `C0:FF:EE:00:00:01 (random)`.
    public var description: String {
        let digits = Array("0123456789ABCDEF")
        let text = bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 0xF)]]) }.joined(separator: ":")
        return text + (random ? " (random)" : " (public)")
    }
}
