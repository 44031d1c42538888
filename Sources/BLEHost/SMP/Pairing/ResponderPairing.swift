/// The responder's pairing on a link: LE Secure Connections, or LE legacy pairing when the
/// central lacks Secure Connections and the accessory allows it. One interface for both.
public enum ResponderPairing: Sendable {
    case secureConnections(SecureConnectionsPairing)
    case legacy(LegacyPairing)

    public var isFinished: Bool {
        switch self {
        case .secureConnections(let p): p.isFinished
        case .legacy(let p): p.isFinished
        }
    }

    public mutating func receive(_ bytes: [UInt8], now: Double) -> [SecureConnectionsPairing.Action] {
        switch self {
        case .secureConnections(var p): defer { self = .secureConnections(p) }; return p.receive(bytes, now: now)
        case .legacy(var p): defer { self = .legacy(p) }; return p.receive(bytes, now: now)
        }
    }

    public mutating func encryptionChanged(enabled: Bool, now: Double) -> [SecureConnectionsPairing.Action] {
        switch self {
        case .secureConnections(var p): defer { self = .secureConnections(p) }; return p.encryptionChanged(enabled: enabled, now: now)
        case .legacy(var p): defer { self = .legacy(p) }; return p.encryptionChanged(enabled: enabled, now: now)
        }
    }

    public mutating func tick(now: Double) -> [SecureConnectionsPairing.Action] {
        switch self {
        case .secureConnections(var p): defer { self = .secureConnections(p) }; return p.tick(now: now)
        case .legacy(var p): defer { self = .legacy(p) }; return p.tick(now: now)
        }
    }
}
