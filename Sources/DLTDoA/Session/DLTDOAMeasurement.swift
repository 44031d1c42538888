import EmulatorMath
/// One DL-TDoA message the phone heard, with the fields iOS gives an app, modelled on
/// `NIDLTDOAMeasurement` (field order as the iOS 27 initializer lists them). The app computes
/// its position from these: a responder's transmit time is in its cluster initiator's time base
/// (the anchors' common time base), so arrival-time differences follow without reply times.
public struct DLTDOAMeasurement: Sendable, Equatable {
    /// Poll (the initiator's first message of a round), Response, Final (the initiator's last).
    public enum MeasurementType: Int, Sendable, Equatable {
        case poll = 0
        case response = 1
        case final = 2
    }

    public enum CoordinatesType: Int, Sendable, Equatable {
        /// Latitude and longitude in degrees, altitude in metres.
        case geodetic = 0
        /// x, y, z in metres in the deployment's frame.
        case relative = 1
    }

    /// A floor number and a height above it, which replaces the altitude or z when present.
    public struct FloorElevation: Sendable, Equatable {
        public var floorNumber: Int
        public var height: Double
        public init(floorNumber: Int, height: Double) {
            self.floorNumber = floorNumber
            self.height = height
        }
    }

    /// The anchor's short address.
    public var address: Int
    /// The address of the initiator anchor of the anchor's cluster: measurements group by it.
    public var clusterInitiatorAddress: Int
    public var measurementType: MeasurementType
    public var coordinatesType: CoordinatesType
    /// Transmit time in seconds (the raw value in RCTU, 15.65 ps).
    public var transmitTime: Double
    public var rawTransmitTime: UInt64
    /// Receive time in seconds on the phone's UWB clock (the raw value in RCTU).
    public var receiveTime: Double
    public var rawReceiveTime: UInt64
    /// dBm.
    public var signalStrength: Double
    /// The phone's clock against the anchor's, as a ratio (phone ticks per anchor tick − 1).
    public var carrierFrequencyOffset: Double
    /// For a response: the responder's clock against its initiator's (positive: the responder
    /// runs fewer cycles per initiator cycle); nil otherwise.
    public var responderClockFrequencyOffset: Double?
    /// The anchor's position (metres for relative coordinates).
    public var coordinates: Vector3
    public var floorElevation: FloorElevation?
    /// When the measurement reached the app, seconds on the phone's monotonic clock (the
    /// emulator's world time). Not an iOS field: an app would read its own clock; the 40-bit
    /// receive time wraps every 17 s and cannot order an app's events.
    public var hostTime: Double

    public init(address: Int, clusterInitiatorAddress: Int, measurementType: MeasurementType, coordinatesType: CoordinatesType,
                transmitTime: Double, rawTransmitTime: UInt64, receiveTime: Double, rawReceiveTime: UInt64, signalStrength: Double,
                carrierFrequencyOffset: Double, responderClockFrequencyOffset: Double?, coordinates: Vector3,
                floorElevation: FloorElevation? = nil, hostTime: Double) {
        self.address = address
        self.clusterInitiatorAddress = clusterInitiatorAddress
        self.measurementType = measurementType
        self.coordinatesType = coordinatesType
        self.transmitTime = transmitTime
        self.rawTransmitTime = rawTransmitTime
        self.receiveTime = receiveTime
        self.rawReceiveTime = rawReceiveTime
        self.signalStrength = signalStrength
        self.carrierFrequencyOffset = carrierFrequencyOffset
        self.responderClockFrequencyOffset = responderClockFrequencyOffset
        self.coordinates = coordinates
        self.floorElevation = floorElevation
        self.hostTime = hostTime
    }
}
