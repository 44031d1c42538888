/// A GATT client for one service of the peer (Core 6.0 Vol 3 Part G §4.3–§4.11): it exchanges
/// the MTU, finds the service by its UUID (Discover Primary Service by Service UUID: Find By
/// Type Value on 0x2800), its characteristics (Read By Type 0x2803 across the service's
/// range), each one's Client Characteristic Configuration descriptor (Find Information between
/// a value and the next declaration), then reads, writes and subscribes as asked. One request
/// at a time, as ATT allows; indications are confirmed. Pure: ATT PDUs in and out.
public struct GATTServiceClient: Sendable {
    public struct Characteristic: Equatable, Sendable {
        public var uuid: ATTUUID
        public var properties: CharacteristicProperties
        public var declarationHandle: UInt16
        public var valueHandle: UInt16
        public var configurationHandle: UInt16?
    }

    public enum Event: Equatable, Sendable {
        case mtu(UInt16)
        /// The service and its characteristics.
        case discovered([Characteristic])
        /// The peer has no such service.
        case serviceNotFound
        case read(handle: UInt16, value: [UInt8])
        case written(handle: UInt16)
        case notification(handle: UInt16, value: [UInt8])
        case indication(handle: UInt16, value: [UInt8])
        /// A request failed (Error Response, or a response that does not fit the request).
        case failed(requestOpcode: UInt8, handle: UInt16, ATTErrorCode)
    }

    public let service: ATTUUID
    public let clientMTU: UInt16
    public private(set) var mtu: UInt16 = 23
    public private(set) var characteristics: [Characteristic] = []
    private var serviceRange: (start: UInt16, end: UInt16)?
    private var stage = Stage.mtu
    private var queue: [ATTPDU] = []
    private var outstanding: ATTPDU?

    enum Stage: Equatable, Sendable {
        case mtu, service, characteristics(from: UInt16), descriptors(index: Int, from: UInt16), ready
    }

    public init(service: ATTUUID, clientMTU: UInt16 = 517) {
        self.service = service
        self.clientMTU = max(23, clientMTU)
    }

    public var isDiscovered: Bool { stage == .ready }

    /// Reads a value (after discovery).
    public mutating func read(_ handle: UInt16) { queue.append(.readRequest(handle: handle)) }
    /// Writes a value with Write Request.
    public mutating func write(_ handle: UInt16, _ value: [UInt8]) { queue.append(.writeRequest(handle: handle, value: value)) }
    /// Writes a value with Write Command (no response; for characteristics that allow only
    /// Write Without Response, such as the RAS Control Point).
    public mutating func writeWithoutResponse(_ handle: UInt16, _ value: [UInt8]) { queue.append(.writeCommand(handle: handle, value: value)) }
    /// Enables notifications (or indications) of a discovered characteristic; false if it has no configuration descriptor.
    @discardableResult
    public mutating func subscribe(_ c: Characteristic, indications: Bool = false) -> Bool {
        guard let cccd = c.configurationHandle else { return false }
        write(cccd, [indications ? 0x02 : 0x01, 0x00])
        return true
    }

    /// The next PDU to send: a confirmation first, then the next request if none is outstanding.
    public mutating func nextPDU() -> ATTPDU? {
        if let first = queue.first, first == .confirmation {
            queue.removeFirst()
            return first
        }
        guard outstanding == nil else { return nil }
        let next: ATTPDU?
        switch stage {
        case .mtu: next = .exchangeMTURequest(clientMTU: clientMTU)
        case .service: next = .findByTypeValueRequest(start: 1, end: 0xFFFF, type: 0x2800, value: service.octets)
        case .characteristics(let from): next = .readByTypeRequest(start: from, end: serviceRange?.end ?? from, type: .characteristic)
        case let .descriptors(index, from): next = .findInformationRequest(start: from, end: descriptorEnd(index))
        case .ready: next = queue.isEmpty ? nil : queue.removeFirst()
        }
        // A command has no response to wait for.
        if case .writeCommand? = next { return next }
        outstanding = next
        return next
    }

    /// One PDU from the server.
    public mutating func receive(_ pdu: ATTPDU) -> [Event] {
        switch pdu {
        case let .notification(handle, value): return [.notification(handle: handle, value: value)]
        case let .indication(handle, value):
            queue.insert(.confirmation, at: 0)
            return [.indication(handle: handle, value: value)]
        default: break
        }
        guard let request = outstanding else { return [] }
        outstanding = nil
        switch (stage, pdu) {
        case (.mtu, .exchangeMTUResponse(let server)):
            mtu = max(23, min(clientMTU, server))
            stage = .service
            return [.mtu(mtu)]
        case (.mtu, .errorResponse):
            // A server without Exchange MTU keeps the default.
            stage = .service
            return [.mtu(mtu)]
        case (.service, .findByTypeValueResponse(let ranges)):
            guard let r = ranges.first, r.start <= r.end else { return [.serviceNotFound] }
            serviceRange = (r.start, r.end)
            stage = r.start < r.end ? .characteristics(from: r.start) : .ready
            return stage == .ready ? [.discovered([])] : []
        case (.service, .errorResponse):
            stage = .ready
            return [.serviceNotFound]
        case (.characteristics, .readByTypeResponse(let list)):
            var last: UInt16 = 0
            for e in list {
                last = max(last, e.handle)
                guard e.value.count == 5 || e.value.count == 19, let uuid = ATTUUID(octets: e.value[3...]) else { continue }
                characteristics.append(Characteristic(uuid: uuid, properties: CharacteristicProperties(rawValue: e.value[0]), declarationHandle: e.handle,
                                                      valueHandle: UInt16(e.value[1]) | UInt16(e.value[2]) << 8, configurationHandle: nil))
            }
            if let end = serviceRange?.end, last < end, last > 0 {
                stage = .characteristics(from: last + 1)
                return []
            }
            return startDescriptors()
        case (.characteristics, .errorResponse):
            return startDescriptors()
        case (let .descriptors(index, _), .findInformationResponse(let entries)):
            var last: UInt16 = 0
            for e in entries {
                last = max(last, e.handle)
                if e.type == .clientCharacteristicConfiguration { characteristics[index].configurationHandle = e.handle }
            }
            if last > 0, last < descriptorEnd(index) {
                stage = .descriptors(index: index, from: last + 1)
                return []
            }
            return nextDescriptors(after: index)
        case (let .descriptors(index, _), .errorResponse):
            return nextDescriptors(after: index)
        case (.ready, .readResponse(let value)):
            guard case .readRequest(let h) = request else { break }
            return [.read(handle: h, value: value)]
        case (.ready, .writeResponse):
            guard case .writeRequest(let h, _) = request else { break }
            return [.written(handle: h)]
        case (_, let .errorResponse(op, handle, error)):
            return [.failed(requestOpcode: op, handle: handle, error)]
        default: break
        }
        return [.failed(requestOpcode: request.opcode, handle: 0, .unlikelyError)]
    }

    /// Descriptors lie between a characteristic's value and the next declaration (or the service's end).
    private func descriptorEnd(_ index: Int) -> UInt16 {
        index + 1 < characteristics.count ? characteristics[index + 1].declarationHandle - 1 : serviceRange?.end ?? 0
    }

    private mutating func startDescriptors() -> [Event] { nextDescriptors(after: -1) }

    /// Looks for the next characteristic's descriptors, or ends the discovery.
    private mutating func nextDescriptors(after index: Int) -> [Event] {
        var i = index + 1
        while i < characteristics.count {
            let from = characteristics[i].valueHandle + 1
            if from <= descriptorEnd(i) {
                stage = .descriptors(index: i, from: from)
                return []
            }
            i += 1
        }
        stage = .ready
        return [.discovered(characteristics)]
    }
}
