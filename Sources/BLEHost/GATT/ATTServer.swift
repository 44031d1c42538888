/// The server side of the Attribute Protocol over one bearer (Core 6.0 Vol 3 Part F §3.4,
/// Part G §4): it answers each request from the database, with the error a server gives
/// (Invalid Handle, Attribute Not Found, Read or Write Not Permitted, Insufficient Encryption
/// on an unencrypted link, Invalid Offset, Unsupported Group Type, Request Not Supported,
/// Invalid PDU) and every response cut to the negotiated ATT_MTU. Pure: PDU octets and the
/// link's encryption in, the response out; what clients wrote is reported for the app.
public struct ATTServer: Sendable {
    public var database: AttributeDatabase
    /// The server's receive MTU, offered in Exchange MTU Response.
    public let serverMTU: UInt16
    /// The bearer's ATT_MTU: 23 until the client exchanges (Vol 3 Part F §3.2.8).
    public private(set) var mtu: UInt16 = 23

    public init(database: AttributeDatabase, serverMTU: UInt16 = 517) {
        self.database = database
        self.serverMTU = max(23, serverMTU)
    }

    /// What one PDU from the client gives: the response to send (none for commands and
    /// confirmations), and the handle and value of a write the app should know of.
    public struct Reply: Equatable, Sendable {
        public var response: ATTPDU?
        public var written: (handle: UInt16, value: [UInt8])?
        public static func == (a: Reply, b: Reply) -> Bool {
            a.response == b.response && a.written?.handle == b.written?.handle && a.written?.value == b.written?.value
        }
    }

    /// One PDU from the client on a link secured as `security`, with the service's rules:
    /// every PDU to send (the response first, then what the service sends because of it).
    public mutating func receive(_ bytes: [UInt8], security: LinkSecurity, now: Double, service: inout some GATTService) -> [ATTPDU] {
        if let pdu = try? ATTPDU.decode(bytes) {
            if pdu == .confirmation { return service.didConfirm(in: self, now: now) }
            switch pdu {
            case let .writeRequest(handle, value), let .writeCommand(handle, value):
                let command = if case .writeCommand = pdu { true } else { false }
                // The attribute's own permissions first (Insufficient Encryption before the service's rules).
                if let a = database.attribute(handle), denied(a, reading: false, security: security) == nil,
                   let refusal = service.authorizeWrite(handle: handle, value: value, in: self) {
                    return command ? [] : [.errorResponse(requestOpcode: pdu.opcode, handle: handle, error: refusal)]
                }
            default:
                break
            }
        }
        let reply = receive(bytes, security: security)
        var out = reply.response.map { [$0] } ?? []
        if let w = reply.written { out += service.didWrite(handle: w.handle, value: w.value, in: &self, now: now) }
        return out
    }

    public mutating func receive(_ bytes: [UInt8], encrypted: Bool) -> Reply {
        receive(bytes, security: encrypted ? .encrypted : .none)
    }

    public mutating func receive(_ bytes: [UInt8], security: LinkSecurity) -> Reply {
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU.decode(bytes)
        } catch {
            // Commands (bit 6 of the opcode) and malformed non-requests get no answer.
            guard let op = bytes.first, ATTOpcodeKind(opcode: op) == .request else { return Reply() }
            if case .unexpectedCode = error { return Reply(response: .errorResponse(requestOpcode: op, handle: 0, error: .requestNotSupported)) }
            return Reply(response: .errorResponse(requestOpcode: op, handle: 0, error: .invalidPDU))
        }
        return handle(pdu, security: security)
    }


    mutating func handle(_ pdu: ATTPDU, security: LinkSecurity) -> Reply {
        let op = pdu.opcode
        func error(_ handle: UInt16, _ e: ATTErrorCode) -> Reply { Reply(response: .errorResponse(requestOpcode: op, handle: handle, error: e)) }
        switch pdu {
        case .exchangeMTURequest(let client):
            mtu = max(23, min(client, serverMTU))
            return Reply(response: .exchangeMTUResponse(serverMTU: serverMTU))
        case let .findInformationRequest(start, end):
            guard start != 0, start <= end else { return error(start, .invalidHandle) }
            let found = inRange(start, end)
            guard let first = found.first else { return error(start, .attributeNotFound) }
            let size = first.type.octets.count
            let fit = (Int(mtu) - 2) / (2 + size)
            let entries = found.prefix { $0.type.octets.count == size }.prefix(fit).map { ATTPDU.HandleType(handle: $0.handle, type: $0.type) }
            return Reply(response: .findInformationResponse(Array(entries)))
        case let .findByTypeValueRequest(start, end, type, value):
            guard start != 0, start <= end else { return error(start, .invalidHandle) }
            let found = inRange(start, end).filter { $0.type == .uuid16(type) && $0.value == value }
            guard !found.isEmpty else { return error(start, .attributeNotFound) }
            let ranges = found.prefix((Int(mtu) - 1) / 4).map { a in ATTPDU.HandleRange(start: a.handle, end: groupEnd(a)) }
            return Reply(response: .findByTypeValueResponse(Array(ranges)))
        case let .readByTypeRequest(start, end, type):
            guard start != 0, start <= end else { return error(start, .invalidHandle) }
            let found = inRange(start, end).filter { $0.type == type }
            guard let first = found.first else { return error(start, .attributeNotFound) }
            if let e = denied(first, reading: true, security: security) { return error(first.handle, e) }
            let length = min(first.value.count, Int(mtu) - 4, 253)
            var list: [ATTPDU.HandleValue] = []
            for a in found {
                // Opcode and Length, then Handle and value per entry (Core 6.0 Vol 3 Part F §3.4.4.2).
                guard denied(a, reading: true, security: security) == nil, min(a.value.count, Int(mtu) - 4, 253) == length,
                      2 + (list.count + 1) * (2 + length) <= Int(mtu) else { break }
                list.append(ATTPDU.HandleValue(handle: a.handle, value: Array(a.value.prefix(length))))
            }
            return Reply(response: .readByTypeResponse(list))
        case .readRequest(let handle):
            guard let a = database.attribute(handle) else { return error(handle, .invalidHandle) }
            if let e = denied(a, reading: true, security: security) { return error(handle, e) }
            return Reply(response: .readResponse(Array(a.value.prefix(Int(mtu) - 1))))
        case let .readBlobRequest(handle, offset):
            guard let a = database.attribute(handle) else { return error(handle, .invalidHandle) }
            if let e = denied(a, reading: true, security: security) { return error(handle, e) }
            guard Int(offset) <= a.value.count else { return error(handle, .invalidOffset) }
            return Reply(response: .readBlobResponse(Array(a.value[Int(offset)...].prefix(Int(mtu) - 1))))
        case let .readByGroupTypeRequest(start, end, type):
            guard start != 0, start <= end else { return error(start, .invalidHandle) }
            guard type == .primaryService else { return error(start, .unsupportedGroupType) }
            let found = inRange(start, end).filter { $0.type == .primaryService }
            guard let first = found.first else { return error(start, .attributeNotFound) }
            let length = first.value.count
            var list: [ATTPDU.GroupValue] = []
            for a in found {
                // Opcode and Length, then two handles and the value per entry (Vol 3 Part F §3.4.4.10).
                guard a.value.count == length, 2 + (list.count + 1) * (4 + length) <= Int(mtu) else { break }
                list.append(ATTPDU.GroupValue(start: a.handle, end: groupEnd(a), value: a.value))
            }
            return Reply(response: .readByGroupTypeResponse(list))
        case let .writeRequest(handle, value), let .writeCommand(handle, value):
            let command = if case .writeCommand = pdu { true } else { false }
            guard let a = database.attribute(handle) else { return command ? Reply() : error(handle, .invalidHandle) }
            if let e = denied(a, reading: false, security: security) { return command ? Reply() : error(handle, e) }
            if a.type == .clientCharacteristicConfiguration && value.count != 2 {
                return command ? Reply() : error(handle, .invalidAttributeValueLength)
            }
            database.setValue(value, at: handle)
            return Reply(response: command ? nil : .writeResponse, written: (handle, value))
        case .confirmation, .errorResponse, .exchangeMTUResponse, .findInformationResponse, .findByTypeValueResponse, .readByTypeResponse,
             .readResponse, .readBlobResponse, .readByGroupTypeResponse, .writeResponse, .notification, .indication:
            return Reply()
        }
    }

    /// The notification of `valueHandle`'s value if its client enabled notifications (CCCD bit 0),
    /// cut to ATT_MTU − 3.
    public func notification(of valueHandle: UInt16) -> ATTPDU? {
        guard let a = database.attribute(valueHandle), let cccd = database.attribute(valueHandle + 1),
              cccd.type == .clientCharacteristicConfiguration, cccd.value.first.map({ $0 & 0x01 != 0 }) == true
        else { return nil }
        return .notification(handle: valueHandle, value: Array(a.value.prefix(Int(mtu) - 3)))
    }

    private func inRange(_ start: UInt16, _ end: UInt16) -> ArraySlice<Attribute> {
        database.attributes.drop { $0.handle < start }.prefix { $0.handle <= end }
    }

    /// A service declaration's group ends where its service does; any other attribute is its own group.
    private func groupEnd(_ a: Attribute) -> UInt16 {
        guard a.type == .primaryService else { return a.handle }
        return database.services.first { $0.start == a.handle }?.end ?? a.handle
    }

    /// Why the client may not read (or write) `a` on this link, if it may not.
    /// (Part F §4 and Vol 3 Part C §10.3: Insufficient Encryption on an unencrypted link,
    /// Insufficient Authentication on a link encrypted with an unauthenticated key.)
    private func denied(_ a: Attribute, reading: Bool, security: LinkSecurity) -> ATTErrorCode? {
        guard a.permissions.contains(reading ? .read : .write) else { return reading ? .readNotPermitted : .writeNotPermitted }
        if a.permissions.contains(.authenticated) {
            if security == .none { return .insufficientEncryption }
            if security < .authenticated { return .insufficientAuthentication }
        }
        if a.permissions.contains(.encrypted) && security == .none { return .insufficientEncryption }
        return nil
    }
}
