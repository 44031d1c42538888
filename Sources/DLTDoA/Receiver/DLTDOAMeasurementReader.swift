import AnchorFirmware
import EmulatorMath

/// The phone's UWB chip turning heard frames into the measurements iOS hands an app: frames of
/// other networks are dropped (the network identifier is the FiRa session ID in every DTM's
/// header IE, so a neighbouring deployment on the same channel never mixes in); each anchor's
/// coordinates come from the location its Polls and Responses carry, each responder's cluster
/// from the Poll that listed it.
public struct DLTDOAMeasurementReader: Sendable {
    public let networkIdentifier: UInt32
    /// Frames dropped because they belong to another network, and because they did not decode.
    public private(set) var otherNetworkFrames = 0
    public private(set) var undecodableFrames = 0

    private var positions: [UInt16: Vector3] = [:]
    /// Responder address → its cluster's initiator, from the Polls heard.
    private var initiators: [UInt16: UInt16] = [:]

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
            for r in p.responders { initiators[r.address] = source }
        case let .response(r):
            type = .response
            location = r.location
            responderOffset = r.cfoQ610.map { Double($0) / 1024 * 1e-6 }
            guard let i = initiators[source] else { return nil }  // its cluster is not known yet
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
