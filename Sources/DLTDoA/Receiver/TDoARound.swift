import EmulatorMath
/// One cluster round as the phone reconstructs it: the initiator anchor (the round's time
/// reference) and, for each responder heard, its range difference d(phone, responder) −
/// d(phone, initiator) in metres.
public struct TDoARound: Sendable, Equatable {
    public struct Difference: Sendable, Equatable {
        public var address: Int
        public var position: Vector3
        /// Metres.
        public var rangeDifference: Double
    }

    public var initiatorAddress: Int
    public var initiatorPosition: Vector3
    /// When the Poll reached the app (`DLTDOAMeasurement.hostTime`), seconds.
    public var time: Double
    public var differences: [Difference]
}
