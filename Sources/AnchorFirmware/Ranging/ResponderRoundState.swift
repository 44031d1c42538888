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
    /// Responder ticks per tick of the Poll's time base, for the common time base: from the
    /// Poll's CFO (unquantized: the Q6.10 field saturates at ±32 ppm) when the initiator's own
    /// crystal is that base (no hop count, or hop 0); from two successive Polls when its
    /// timestamps are chained from a reference (hop ≥ 1); nil until both are heard.
    var responderTicksPerPollTick: Double? = 1
    /// Initiator ticks per tick of the Poll's time base (1 unless chained): turns a Poll-to-Final
    /// interval in common ticks back into the initiator's own, for DS-TWR.
    var initiatorTicksPerPollTick = 1.0
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
