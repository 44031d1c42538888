/// What a responder of one round knows: the last Poll (its TX timestamp in the initiator's clock,
/// its local RX time, the measured CFO), its own Response's TX time, and the DS-TWR ToF of the
/// previous block that the next Response reports.
struct ResponderRoundState: Sendable {
    var round: UInt8
    var initiator: UInt16
    var blockIndex: UInt16?
    var pollTx: UWBTimestamp?
    var pollRx: UWBTimestamp?
    var cfoQ610: Int16 = 0
    /// β, responder ticks per initiator tick, as measured on the Poll (unquantized, for the
    /// common time base: the Q6.10 field saturates at ±32 ppm).
    var responderTicksPerInitiatorTick = 1.0
    /// Where the initiator says it is (from its Poll).
    var initiatorLocation: AnchorCoordinates?
    var finalFollows = true
    var responseTx: UWBTimestamp?
    /// DS-TWR ToF from the last complete exchange (0 = invalid, none yet).
    var timeOfFlight: Int16 = 0

    init(round: UInt8, initiator: UInt16) {
        self.round = round
        self.initiator = initiator
    }
}
