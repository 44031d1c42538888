import EmulatorMath
/// One cluster round as the phone reconstructs it: the anchor whose arrival the others are
/// compared with (the initiator, or the first responder heard when the Poll was lost) and, for
/// each other anchor heard, its range difference d(phone, anchor) − d(phone, reference) in metres.
public struct TDoARound: Sendable, Equatable {
    public struct Difference: Sendable, Equatable {
        public var address: Int
        public var position: Vector3
        /// Metres.
        public var rangeDifference: Double
    }

    /// The cluster's initiator: the round's identity, whether or not its Poll was heard.
    public var initiatorAddress: Int
    /// The anchor the differences are taken against.
    public var referenceAddress: Int
    public var referencePosition: Vector3
    /// When the round's first message reached the app (`DLTDOAMeasurement.hostTime`), seconds.
    public var time: Double
    public var differences: [Difference]

    /// The address of an anchor of an epoch's rounds, as a `TDoAProblem` built from them
    /// numbers it (group = round, nil index = the round's reference); nil when out of range.
    public static func address(of id: TDoAAnchorID, in rounds: [TDoARound]) -> Int? {
        guard rounds.indices.contains(id.group) else { return nil }
        let round = rounds[id.group]
        guard let i = id.index else { return round.referenceAddress }
        return round.differences.indices.contains(i) ? round.differences[i].address : nil
    }
}
