/// Which antenna of each device forms antenna path `index` (0-based, A1 = 0) under an antenna
/// configuration index (Core 6.0 Vol 6 Part H §4.x): ACI 1–3 vary the initiator's antenna, ACI 4–6
/// the reflector's. For ACI 7 (2 × 2) this implementation orders the paths
/// A1 = (I1, R1), A2 = (I2, R1), A3 = (I1, R2), A4 = (I2, R2) [U: the public sources do not show
/// the spec's table for the 2 × 2 case; both sides only need to agree].
public struct AntennaPath: Sendable, Equatable {
    /// 1-based antenna of the initiator.
    public var initiatorAntenna: UInt8
    /// 1-based antenna of the reflector.
    public var reflectorAntenna: UInt8

    @inline(__always)
    public init(index: Int, configuration: AntennaConfiguration) {
        let p = UInt8(truncatingIfNeeded: max(0, min(index, configuration.antennaPaths - 1)))
        switch configuration.index {
        case 1, 2, 3: self.init(initiator: p + 1, reflector: 1)
        case 4, 5, 6: self.init(initiator: 1, reflector: p + 1)
        case 7: self.init(initiator: p % 2 + 1, reflector: p / 2 + 1)
        default: self.init(initiator: 1, reflector: 1)
        }
    }

    public init(initiator: UInt8, reflector: UInt8) {
        initiatorAntenna = initiator
        reflectorAntenna = reflector
    }

    @inline(__always)
    public func antenna(for role: CSRole) -> UInt8 { role == .initiator ? initiatorAntenna : reflectorAntenna }
}
