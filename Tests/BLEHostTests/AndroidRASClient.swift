import BLEHost

/// A RAS client with the habits of Android's `system/bta/ras/ras_client.cc` (AOSP, Apache-2.0;
/// read in the source, not copied), at the ATT level, on simulated time. It is the test's
/// stand-in for a Pixel: what our accessory's Ranging Service must satisfy.
///
/// What it does, as ras_client.cc does it:
/// - after the service search: Exchange MTU with 247 ("4.1 Maximum transmission unit of RAP 1.0");
/// - reads every vendor-specific (non-RAS) characteristic inside the Ranging Service, then RAS
///   Features, which must be exactly 4 octets (else it stops there);
/// - subscribes to the RAS Control Point (indications: it has no Notify) in both modes;
/// - once the features are in: real-time when bit 0 is set (one subscription, 5 s timer for the
///   first segment), else On-demand Ranging Data, Ranging Data Ready and Ranging Data
///   Overwritten (5 s timer for Data Ready); notifications where the characteristic has Notify;
/// - each segment cancels the timer, and when it is not the last (Segmentation Header bit 1,
///   RAS 1.0 §3.2.1.1) starts a 1 s one;
/// - real-time timeout: writes the Real-time Ranging Data CCCD 0x0000; on-demand timeout
///   (first or following segment): writes Abort; Data Ready timeout: nothing but a report;
/// - Data Ready must be 2 octets: Get Ranging Data (5 s timer) unless one is being handled;
///   Complete Ranging Data Response: ACK, and Get again if a newer counter was announced;
///   any Response Code ends the "handling" state; Ranging Data Overwritten is ignored;
/// - every Control Point write is a Write Command (Write Without Response).
///
/// Its timers behave as the osi alarms there: each set makes a new alarm, a cancel stops only
/// the latest, and a firing acts on the timeout type set last.
struct AndroidRASClient {
    enum Mode: Equatable { case none, realTime, onDemand }
    enum TimeoutType: Equatable { case none, firstSegment, followingSegment, rangingDataReady }

    enum Event: Equatable {
        case mtu(UInt16)
        case features(UInt32)
        case invalidFeaturesLength(Int)
        /// One segment of ranging data, as handed to the HAL.
        case remoteData([UInt8])
        case timeout(TimeoutType, Mode)
    }

    /// A write the client made: when, to which handle, what, and whether as a Write Command.
    struct Write: Equatable {
        var time: Double
        var handle: UInt16
        var value: [UInt8]
        var command: Bool
    }

    struct Characteristic {
        var uuid: ATTUUID
        var properties: UInt8
        var declaration: UInt16
        var valueHandle: UInt16
        var cccd: UInt16?
    }

    static let mtuRequested: UInt16 = 247
    static let firstSegmentTimeout = 5.0
    static let followingSegmentTimeout = 1.0
    static let rangingDataReadyTimeout = 5.0
    /// The RAS 1.0 characteristics (0x2C14–0x2C19); anything else in the service is vendor-specific.
    static let rasUUIDs: Set<UInt16> = [0x2C14, 0x2C15, 0x2C16, 0x2C17, 0x2C18, 0x2C19]

    private enum Operation {
        case primaryServices(from: UInt16)
        case characteristics(from: UInt16)
        case descriptors(of: Int, from: UInt16)
        case mtu
        case read(UInt16)
        case writeDescriptor(UInt16, [UInt8])
        case writeCommand(UInt16, [UInt8])
    }

    private(set) var events: [Event] = []
    private(set) var writes: [Write] = []
    private(set) var reads: [UInt16] = []
    private(set) var mode = Mode.none
    private(set) var timeoutType = TimeoutType.none
    private(set) var features: UInt32?
    private(set) var latestRangingCounter: UInt16 = 0
    private(set) var handlingOnDemandData = false
    private(set) var characteristics: [Characteristic] = []
    private var service: ClosedRange<UInt16>?
    private var queue: [Operation] = []
    private var inFlight: Operation?
    private var outbox: [[UInt8]] = []
    private var now = 0.0
    /// Pending alarms (id, deadline); `currentAlarm` is the one a cancel stops.
    private var alarms: [(id: Int, deadline: Double)] = []
    private var currentAlarm: Int?
    private var nextAlarm = 0

    /// Connected: the service search starts (BTA's discovery of every primary service).
    init() { enqueue(.primaryServices(from: 0x0001)) }

    /// The PDUs to send now (octets), in order.
    mutating func take() -> [[UInt8]] {
        pump()
        defer { outbox = [] }
        return outbox
    }

    func characteristic(_ uuid: UInt16) -> Characteristic? { characteristics.first { $0.uuid == .uuid16(uuid) } }

    /// Time passes: alarms whose deadline came fire, in deadline order.
    mutating func tick(now t: Double) {
        now = t
        while let i = alarms.indices.filter({ alarms[$0].deadline <= t }).min(by: { alarms[$0].deadline < alarms[$1].deadline }) {
            let a = alarms.remove(at: i)
            if currentAlarm == a.id { currentAlarm = nil }
            rangingDataTimeout()
        }
    }

    /// One PDU from the server (octets), at `t`.
    mutating func receive(_ bytes: [UInt8], now t: Double) {
        now = t
        guard let pdu = try? ATTPDU.decode(bytes) else { return }
        switch pdu {
        case let .notification(handle, value):
            notified(handle, value)
        case let .indication(handle, value):
            outbox.append(ATTPDU.confirmation.encode())
            notified(handle, value)
        default:
            responded(pdu)
        }
    }

    // MARK: The GATT client's queue (BTA GATTC: one request at a time)

    private mutating func enqueue(_ op: Operation) { queue.append(op) }

    private mutating func pump() {
        while inFlight == nil, !queue.isEmpty {
            let op = queue.removeFirst()
            switch op {
            case .primaryServices(let from):
                send(.readByGroupTypeRequest(start: from, end: 0xFFFF, type: .primaryService), op)
            case .characteristics(let from):
                send(.readByTypeRequest(start: from, end: service!.upperBound, type: .characteristic), op)
            case let .descriptors(i, from):
                send(.findInformationRequest(start: from, end: descriptorRangeEnd(i)), op)
            case .mtu:
                send(.exchangeMTURequest(clientMTU: Self.mtuRequested), op)
            case .read(let h):
                reads.append(h)
                send(.readRequest(handle: h), op)
            case let .writeDescriptor(h, v):
                writes.append(Write(time: now, handle: h, value: v, command: false))
                send(.writeRequest(handle: h, value: v), op)
            case let .writeCommand(h, v):
                writes.append(Write(time: now, handle: h, value: v, command: true))
                outbox.append(ATTPDU.writeCommand(handle: h, value: v).encode())
            }
        }
    }

    private mutating func send(_ pdu: ATTPDU, _ op: Operation) {
        outbox.append(pdu.encode())
        inFlight = op
    }

    private func descriptorRangeEnd(_ i: Int) -> UInt16 {
        i + 1 < characteristics.count ? characteristics[i + 1].declaration - 1 : service!.upperBound
    }

    private mutating func responded(_ pdu: ATTPDU) {
        guard let op = inFlight else { return }
        inFlight = nil
        switch (op, pdu) {
        case (.primaryServices, .readByGroupTypeResponse(let groups)):
            if let g = groups.first(where: { $0.value == [0x5B, 0x18] }) { service = g.start...g.end }
            if let last = groups.last, last.end < 0xFFFF {
                enqueue(.primaryServices(from: last.end + 1))
            } else {
                searchComplete()
            }
        case (.primaryServices, .errorResponse):
            searchComplete()
        case (.characteristics, .readByTypeResponse(let list)):
            for e in list where e.value.count >= 5 {
                let uuid = ATTUUID(octets: e.value[3...]) ?? .uuid16(0)
                characteristics.append(Characteristic(uuid: uuid, properties: e.value[0], declaration: e.handle,
                                                      valueHandle: UInt16(e.value[1]) | UInt16(e.value[2]) << 8))
            }
            if let last = list.last, last.handle < service!.upperBound {
                enqueue(.characteristics(from: last.handle + 1))
            } else {
                discoverDescriptors(from: 0)
            }
        case (.characteristics, .errorResponse):
            discoverDescriptors(from: 0)
        case let (.descriptors(i, _), .findInformationResponse(list)):
            for d in list where d.type == .clientCharacteristicConfiguration { characteristics[i].cccd = d.handle }
            if let last = list.last, last.handle < descriptorRangeEnd(i) {
                enqueue(.descriptors(of: i, from: last.handle + 1))
            } else {
                discoverDescriptors(from: i + 1)
            }
        case let (.descriptors(i, _), .errorResponse):
            discoverDescriptors(from: i + 1)
        case (.mtu, .exchangeMTUResponse(let serverMTU)):
            events.append(.mtu(min(serverMTU, Self.mtuRequested)))
        case let (.read(h), .readResponse(value)):
            readCharacteristic(h, value)
        default:
            break
        }
    }

    private mutating func discoverDescriptors(from i: Int) {
        // Descriptors lie between a value handle and the next declaration (or the service's end).
        var k = i
        while k < characteristics.count, characteristics[k].valueHandle >= descriptorRangeEnd(k) { k += 1 }
        if k < characteristics.count {
            enqueue(.descriptors(of: k, from: characteristics[k].valueHandle + 1))
        } else {
            serviceSearchComplete()
        }
    }

    private mutating func searchComplete() {
        if service != nil { enqueue(.characteristics(from: service!.lowerBound)) } else { enqueue(.mtu) }
    }

    /// ras_client.cc's OnGattServiceSearchComplete: MTU 247, the vendor-specific reads, RAS
    /// Features, then the Control Point's subscription.
    private mutating func serviceSearchComplete() {
        enqueue(.mtu)
        for c in characteristics { if case .uuid16(let u) = c.uuid, Self.rasUUIDs.contains(u) { continue }; enqueue(.read(c.valueHandle)) }
        guard let f = characteristic(0x2C14) else { return }
        enqueue(.read(f.valueHandle))
        subscribe(0x2C17)
    }

    private mutating func readCharacteristic(_ h: UInt16, _ value: [UInt8]) {
        guard h == characteristic(0x2C14)?.valueHandle else { return }  // a vendor-specific value: for the HAL
        guard value.count == 4 else { return events.append(.invalidFeaturesLength(value.count)) }
        let f = UInt32(value[0]) | UInt32(value[1]) << 8 | UInt32(value[2]) << 16 | UInt32(value[3]) << 24
        features = f
        events.append(.features(f))
        if f & 0x01 != 0 {
            mode = .realTime
            subscribe(0x2C15)
            setAlarm(Self.firstSegmentTimeout, .firstSegment)
        } else {
            mode = .onDemand
            subscribe(0x2C16)
            subscribe(0x2C18)
            subscribe(0x2C19)
            setAlarm(Self.rangingDataReadyTimeout, .rangingDataReady)
        }
    }

    /// Notifications when the characteristic has Notify (0x10), else indications.
    private mutating func subscribe(_ uuid: UInt16) {
        guard let c = characteristic(uuid), let cccd = c.cccd else { return }
        enqueue(.writeDescriptor(cccd, c.properties & 0x10 != 0 ? [0x01, 0x00] : [0x02, 0x00]))
    }

    // MARK: Ranging data

    private mutating func notified(_ handle: UInt16, _ value: [UInt8]) {
        guard let c = characteristics.first(where: { $0.valueHandle == handle }), case .uuid16(let uuid) = c.uuid else { return }
        switch uuid {
        case 0x2C15, 0x2C16:
            guard let header = value.first else { return }
            cancelAlarm()
            if header & 0x02 == 0 { setAlarm(Self.followingSegmentTimeout, .followingSegment) }
            events.append(.remoteData(value))
        case 0x2C17:
            switch value.first {
            case 0x00 where value.count >= 3: ackRangingData(UInt16(value[1]) | UInt16(value[2]) << 8)
            case 0x02: handlingOnDemandData = false
            default: break
            }
        case 0x2C18:
            guard value.count == 2 else { return }
            latestRangingCounter = UInt16(value[0]) | UInt16(value[1]) << 8
            if timeoutType == .rangingDataReady { cancelAlarm() }
            getRangingData(latestRangingCounter)
        default:
            break  // Ranging Data Overwritten included: subscribed to, never acted on
        }
    }

    private mutating func getRangingData(_ counter: UInt16) {
        guard !handlingOnDemandData, let cp = characteristic(0x2C17) else { return }
        handlingOnDemandData = true
        enqueue(.writeCommand(cp.valueHandle, [0x00, UInt8(counter & 0xFF), UInt8(counter >> 8)]))
        setAlarm(Self.firstSegmentTimeout, .firstSegment)
    }

    private mutating func ackRangingData(_ counter: UInt16) {
        guard let cp = characteristic(0x2C17) else { return }
        handlingOnDemandData = false
        enqueue(.writeCommand(cp.valueHandle, [0x01, UInt8(counter & 0xFF), UInt8(counter >> 8)]))
        if counter != latestRangingCounter { getRangingData(latestRangingCounter) }
    }

    private mutating func rangingDataTimeout() {
        let type = timeoutType
        switch type {
        case .firstSegment, .followingSegment:
            if mode == .realTime {
                if let cccd = characteristic(0x2C15)?.cccd { enqueue(.writeDescriptor(cccd, [0x00, 0x00])) }
                events.append(.timeout(type, mode))
                mode = .none
                return
            }
            handlingOnDemandData = false
            if let cp = characteristic(0x2C17) { enqueue(.writeCommand(cp.valueHandle, [0x03])) }
        case .rangingDataReady, .none:
            break
        }
        events.append(.timeout(type, mode))
    }

    private mutating func setAlarm(_ seconds: Double, _ type: TimeoutType) {
        timeoutType = type
        nextAlarm += 1
        alarms.append((nextAlarm, now + seconds))
        currentAlarm = nextAlarm
    }

    private mutating func cancelAlarm() {
        guard let c = currentAlarm else { return }
        alarms.removeAll { $0.id == c }
        currentAlarm = nil
    }

    /// The deadlines of the alarms still pending.
    var pendingDeadlines: [Double] { alarms.map(\.deadline).sorted() }
}
