import AnchorFirmware
import EmulatorMath

/// The phone's UWB chip turning heard frames into the measurements iOS hands an app: frames of
/// other networks are dropped (the network identifier is the FiRa session ID in every DTM's
/// header IE, so a neighbouring deployment on the same channel never mixes in); each anchor's
/// coordinates come from the location its Polls and Responses carry, each responder's cluster
/// from the last Poll of that round index that listed it (a bridge responds in its parent's
/// round and initiates its own, so the address alone does not name the cluster).
///
/// Decision: a Response whose TX timestamp is in its sender's local time base (message control
/// bit 13 clear: a responder of a chained cluster before it has the rate to the common base)
/// is dropped, since an app has only TX and RX times and could not tell it from a common one.
public struct DLTDOAMeasurementReader: Sendable {
    public let networkIdentifier: UInt32
    /// Frames dropped because they belong to another network, and because they did not decode.
    public private(set) var otherNetworkFrames = 0
    public private(set) var undecodableFrames = 0
    /// Responses dropped because their TX timestamp was not in the common time base.
    public private(set) var localTimeBaseResponses = 0

    private var positions: [UInt16: Vector3] = [:]
    /// (round index, responder address) → that round's initiator, from the Polls heard.
    private var initiators: [UInt32: UInt16] = [:]

    static func key(round: UInt8, address: UInt16) -> UInt32 { UInt32(round) << 16 | UInt32(address) }

    public init(networkIdentifier: UInt32) { self.networkIdentifier = networkIdentifier }

    /// The measurement for a heard frame, or nil when it is not one for this network.
    public mutating func read(_ heard: HeardUWBFrame) -> DLTDOAMeasurement? {
        let frame: DTFrame
        do { frame = try DTFrame.decode(heard.octets) } catch {
            undecodableFrames += 1
            return nil
        }
        guard frame.sessionID == networkIdentifier else {
            otherNetworkFrames += 1
            return nil
        }
        let source = frame.sourceAddress
        let type: DLTDOAMeasurement.MeasurementType
        var location: AnchorCoordinates?
        var responderOffset: Double?
        var initiator = source
        switch frame.message {
        case let .poll(p):
            type = .poll
            location = p.location
            for r in p.responders { initiators[Self.key(round: frame.roundIndex, address: r.address)] = source }
        case let .response(r):
            type = .response
            location = r.location
            responderOffset = r.cfoQ610.map { Double($0) / 1024 * 1e-6 }
            guard let i = initiators[Self.key(round: frame.roundIndex, address: source)] else { return nil }  // its cluster is not known yet
            guard frame.commonTimeBase else {
                localTimeBaseResponses += 1
                return nil
            }
            initiator = i
        case .final:
            type = .final
        }
        if let location, case let .relative(x, y, z) = location {
            positions[source] = Vector3(Double(x) / 1000, Double(y) / 1000, Double(z) / 1000)
        }
        guard let position = positions[source] else { return nil }  // no location heard yet
        let tx = frame.message.txTimestamp.ticks
        return DLTDOAMeasurement(address: Int(source), clusterInitiatorAddress: Int(initiator), measurementType: type, coordinatesType: .relative,
                                 transmitTime: Double(tx) / UWBTimestamp.ticksPerSecond, rawTransmitTime: tx,
                                 receiveTime: Double(heard.rawReceiveTime) / UWBTimestamp.ticksPerSecond, rawReceiveTime: heard.rawReceiveTime,
                                 signalStrength: heard.signalStrength, carrierFrequencyOffset: heard.carrierFrequencyOffset,
                                 responderClockFrequencyOffset: responderOffset, coordinates: position, hostTime: heard.trueTime)
    }
}
