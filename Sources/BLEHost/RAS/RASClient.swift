import ReflectorFirmware

/// The phone's client of the reflector's Ranging Service (RAS 1.0 §3–§4; the server side as
/// nRF `ras_rrsp.c` runs it): it finds the service and reads RAS Features, and once asked to
/// (`subscribe()`: the configuration has no inline PCT) subscribes to the reflector's ranging
/// data, then relays every segment of it in order.
///
/// - Real-time (Features bit 0 set, and preferred): Real-time Ranging Data notifications
///   (indications if it cannot notify) carry each procedure's segments as it ends.
/// - On demand (otherwise): On-demand Ranging Data, the RAS Control Point (indications),
///   Ranging Data Ready and Ranging Data Overwritten. For each procedure the server announces
///   (Ranging Data Ready, its 16-bit counter) the client writes Get Ranging Data, takes the
///   segments, and on Complete Ranging Data Response writes ACK Ranging Data; one procedure
///   at a time, as the server serves them. The Control Point takes Write Without Response
///   (Write Request if that is all it allows).
///
/// Pure: ATT PDUs in (`receive`) and out (`nextPDU`), through a `GATTServiceClient`.
public struct RASClient: Sendable {
    public enum Mode: Sendable, Equatable { case realTime, onDemand }

    public enum Event: Sendable, Equatable {
        /// The service is there: its RAS Features (bit 0 real-time, 1 retrieve lost segments,
        /// 2 abort, 3 filter).
        case found(features: UInt32)
        /// Subscribed: ranging data arrives in this mode.
        case ready(Mode)
        /// One segment of a procedure's ranging data (Segmentation Header first).
        case segment([UInt8])
        /// The server dropped a procedure's data before the client fetched it.
        case overwritten(rangingCounter: UInt16)
        /// The Control Point refused a command for this procedure (it is skipped).
        case refused(rangingCounter: UInt16, RASResponseCode)
        /// The peer has no usable Ranging Service: why.
        case unavailable(String)
    }

    /// What the client is doing.
    enum Stage: Sendable, Equatable {
        case discovering, readingFeatures, found, subscribing(remaining: Int), ready(Mode), unavailable
    }

    /// A procedure fetched on demand: asked for (Get sent), then acknowledged (ACK sent).
    enum Fetch: Sendable, Equatable {
        case getting(UInt16), acknowledging(UInt16)
    }

    public let prefersRealTime: Bool
    public private(set) var features: UInt32?
    private(set) var stage = Stage.discovering
    private var gatt: GATTServiceClient
    private var subscribeWhenFound = false
    private var fetch: Fetch?
    /// Announced procedures not fetched yet, oldest first (a few: older ones are overwritten).
    private var announced: [UInt16] = []
    static let announcedLimit = 4

    public init(clientMTU: UInt16 = 517, prefersRealTime: Bool = true) {
        self.prefersRealTime = prefersRealTime
        gatt = GATTServiceClient(service: .uuid16(RASUUID.rangingService), clientMTU: clientMTU)
    }

    /// The ATT_MTU agreed with the server.
    public var mtu: UInt16 { gatt.mtu }
    public var mode: Mode? { if case .ready(let m) = stage { m } else { nil } }

    /// Subscribes to the ranging data (now, or as soon as the features are read).
    public mutating func subscribe() {
        guard stage == .found else { return subscribeWhenFound = true }
        startSubscriptions()
    }

    public mutating func nextPDU() -> ATTPDU? { gatt.nextPDU() }

    /// One PDU from the server.
    public mutating func receive(_ pdu: ATTPDU) -> [Event] {
        var events: [Event] = []
        for e in gatt.receive(pdu) { events += handle(e) }
        return events
    }

    private func characteristic(_ uuid: UInt16) -> GATTServiceClient.Characteristic? {
        gatt.characteristics.first { $0.uuid == .uuid16(uuid) }
    }

    private mutating func handle(_ e: GATTServiceClient.Event) -> [Event] {
        switch e {
        case .mtu: return []
        case .serviceNotFound: return unavailable("the reflector has no Ranging Service (0x185B)")
        case .discovered:
            guard let f = characteristic(RASUUID.features) else { return unavailable("its Ranging Service has no RAS Features characteristic") }
            stage = .readingFeatures
            gatt.read(f.valueHandle)
            return []
        case let .read(handle, value):
            guard stage == .readingFeatures, handle == characteristic(RASUUID.features)?.valueHandle else { return [] }
            guard value.count >= 4 else { return unavailable("its RAS Features value is \(value.count) octets, not 4") }
            let f = UInt32(value[0]) | UInt32(value[1]) << 8 | UInt32(value[2]) << 16 | UInt32(value[3]) << 24
            features = f
            stage = .found
            var events: [Event] = [.found(features: f)]
            if subscribeWhenFound { events += startSubscriptions() }
            return events
        case .written:
            guard case .subscribing(let remaining) = stage else { return [] }
            guard remaining <= 1 else {
                stage = .subscribing(remaining: remaining - 1)
                return []
            }
            let m: Mode = characteristic(RASUUID.realTimeRangingData) != nil && wantsRealTime ? .realTime : .onDemand
            stage = .ready(m)
            return [.ready(m)]
        case let .notification(handle, value), let .indication(handle, value):
            return received(value, on: handle)
        case let .failed(op, handle, error):
            switch stage {
            case .readingFeatures: return unavailable("reading RAS Features failed: \(error) (ATT error 0x\(hex(error.rawValue)))")
            case .subscribing:
                return unavailable("subscribing to handle 0x\(hex(handle)) failed: \(error) (ATT error 0x\(hex(error.rawValue)), request 0x\(hex(op)))")
            case .discovering: return unavailable("discovering the Ranging Service failed: \(error)")
            default: return []
            }
        }
    }

    private var wantsRealTime: Bool { prefersRealTime && (features ?? 0) & 1 != 0 }

    /// Real-time: one subscription; on demand: the data, the Control Point and the two status characteristics.
    @discardableResult
    private mutating func startSubscriptions() -> [Event] {
        subscribeWhenFound = false
        var wanted: [(UInt16, required: Bool)]
        if wantsRealTime, characteristic(RASUUID.realTimeRangingData) != nil {
            wanted = [(RASUUID.realTimeRangingData, true)]
        } else {
            wanted = [(RASUUID.onDemandRangingData, true), (RASUUID.controlPoint, true), (RASUUID.rangingDataReady, true),
                      (RASUUID.rangingDataOverwritten, false)]
        }
        var count = 0
        for (uuid, required) in wanted {
            guard let c = characteristic(uuid), c.configurationHandle != nil else {
                if required { return unavailable("its Ranging Service lacks characteristic 0x\(hex(uuid)) (or its configuration descriptor)") }
                continue
            }
            // Notifications where the characteristic allows them (fewer round trips); the Control Point only indicates.
            gatt.subscribe(c, indications: !c.properties.contains(.notify))
            count += 1
        }
        stage = .subscribing(remaining: count)
        return []
    }

    private mutating func received(_ value: [UInt8], on handle: UInt16) -> [Event] {
        guard case .ready(let m) = stage else { return [] }
        switch handle {
        case characteristic(RASUUID.realTimeRangingData)?.valueHandle where m == .realTime,
             characteristic(RASUUID.onDemandRangingData)?.valueHandle where m == .onDemand:
            return [.segment(value)]
        case characteristic(RASUUID.rangingDataReady)?.valueHandle where m == .onDemand:
            guard value.count >= 2 else { return [] }
            announced.append(UInt16(value[0]) | UInt16(value[1]) << 8)
            if announced.count > Self.announcedLimit { announced.removeFirst() }
            fetchNext()
            return []
        case characteristic(RASUUID.rangingDataOverwritten)?.valueHandle where m == .onDemand:
            guard value.count >= 2 else { return [] }
            let counter = UInt16(value[0]) | UInt16(value[1]) << 8
            announced.removeAll { $0 == counter }
            return [.overwritten(rangingCounter: counter)]
        case characteristic(RASUUID.controlPoint)?.valueHandle where m == .onDemand:
            return controlPointResponse(value)
        default:
            return []
        }
    }

    /// The Control Point's answer: data complete (ACK it), or a response code to our last command.
    private mutating func controlPointResponse(_ value: [UInt8]) -> [Event] {
        guard let response = try? RASControlPointResponse.decode(value), let current = fetch else { return [] }
        switch response {
        case .completeRangingData(let counter):
            guard case .getting(counter) = current else { return [] }
            fetch = .acknowledging(counter)
            writeControlPoint(.ackRangingData(rangingCounter: counter))
            return []
        case .responseCode(.success), .responseCode(.successPersisted):
            // Get's success comes before the data; ACK's ends the procedure.
            if case .acknowledging = current {
                fetch = nil
                fetchNext()
            }
            return []
        case .responseCode(let code):
            let counter: UInt16
            switch current { case .getting(let c), .acknowledging(let c): counter = c }
            fetch = nil
            fetchNext()
            return [.refused(rangingCounter: counter, code)]
        case .completeLostSegments:
            return []
        }
    }

    private mutating func fetchNext() {
        guard fetch == nil, !announced.isEmpty else { return }
        let counter = announced.removeFirst()
        fetch = .getting(counter)
        writeControlPoint(.getRangingData(rangingCounter: counter))
    }

    private mutating func writeControlPoint(_ command: RASControlPointCommand) {
        guard let cp = characteristic(RASUUID.controlPoint) else { return }
        if cp.properties.contains(.writeWithoutResponse) {
            gatt.writeWithoutResponse(cp.valueHandle, command.encode())
        } else {
            gatt.write(cp.valueHandle, command.encode())
        }
    }

    private mutating func unavailable(_ why: String) -> [Event] {
        stage = .unavailable
        return [.unavailable(why)]
    }

    private func hex<T: BinaryInteger>(_ v: T) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, MemoryLayout<T>.size * 2 - s.count)) + s
    }
}
