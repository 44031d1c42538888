/// The parameters LE CS Set Procedure Parameters gives a configuration (Core 6.0 Vol 4 Part E
/// §7.8.140): how long and how often procedures run, and the antennas and power they use.
public struct ProcedureParameters: Sendable, Equatable {
    /// Max_Procedure_Len in units of 0.625 ms (1...0xFFFF).
    public var maxProcedureLength: UInt16
    /// Min/Max_Procedure_Interval in ACL connection events.
    public var minProcedureInterval: UInt16
    public var maxProcedureInterval: UInt16
    /// Max_Procedure_Count; 0 runs procedures until disabled.
    public var maxProcedureCount: UInt16
    /// Min/Max_Subevent_Len in microseconds (1250 µs ... 4 s).
    public var minSubeventLength: UInt32
    public var maxSubeventLength: UInt32
    /// Tone_Antenna_Config_Selection.
    public var antennaConfiguration: AntennaConfiguration
    /// PHY of the ACL link during CS (1 = 1M, 2 = 2M, 3 = Coded S8, 4 = Coded S2).
    public var phy: UInt8
    /// Tx_Power_Delta in dB; `nil` is "no recommendation" (0x80).
    public var txPowerDelta: Int8?
    /// Preferred_Peer_Antenna bits 0...3.
    public var preferredPeerAntenna: UInt8
    /// SNR_Control_Initiator/Reflector: 0...4 for 18...30 dB, `nil` when not applied (0xFF).
    public var snrControlInitiator: UInt8?
    public var snrControlReflector: UInt8?

    public init(
        maxProcedureLength: UInt16 = 0x0640, minProcedureInterval: UInt16 = 1, maxProcedureInterval: UInt16 = 1,
        maxProcedureCount: UInt16 = 0, minSubeventLength: UInt32 = 1250, maxSubeventLength: UInt32 = 40_000,
        antennaConfiguration: AntennaConfiguration = AntennaConfiguration(index: 0)!, phy: UInt8 = 1,
        txPowerDelta: Int8? = nil, preferredPeerAntenna: UInt8 = 0x01,
        snrControlInitiator: UInt8? = nil, snrControlReflector: UInt8? = nil
    ) {
        self.maxProcedureLength = maxProcedureLength
        self.minProcedureInterval = minProcedureInterval
        self.maxProcedureInterval = maxProcedureInterval
        self.maxProcedureCount = maxProcedureCount
        self.minSubeventLength = minSubeventLength
        self.maxSubeventLength = maxSubeventLength
        self.antennaConfiguration = antennaConfiguration
        self.phy = phy
        self.txPowerDelta = txPowerDelta
        self.preferredPeerAntenna = preferredPeerAntenna
        self.snrControlInitiator = snrControlInitiator
        self.snrControlReflector = snrControlReflector
    }

    /// Max_Procedure_Len in microseconds.
    public var maxProcedureLengthMicroseconds: UInt32 { UInt32(maxProcedureLength) * 625 }
}
