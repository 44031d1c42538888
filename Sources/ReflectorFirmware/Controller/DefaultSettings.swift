/// LE CS Set Default Settings as the controller keeps it (Core 6.0 Vol 4 Part E §7.8.134): which
/// CS roles the host allows on the connection, the CS_SYNC antenna and the power cap.
public struct DefaultSettings: Sendable, Equatable {
    public var initiatorEnabled = false
    public var reflectorEnabled = false
    /// 1...4 an antenna; 0xFE cycle antennas; 0xFF no recommendation.
    public var syncAntennaSelection: UInt8 = 0xFF
    public var maxTxPower: Int8 = 20

    public init() {}

    public func allows(_ role: CSRole) -> Bool { role == .initiator ? initiatorEnabled : reflectorEnabled }

    /// The antenna CS_SYNC packets use.
    public var syncAntenna: UInt8 { (1...4).contains(syncAntennaSelection) ? syncAntennaSelection : 1 }
}
