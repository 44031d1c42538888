import ReflectorFirmware

/// The Attribute Protocol PDUs a GATT client and server exchange (Core 6.0 Vol 3 Part F §3.4):
/// `Opcode 1 | Parameters`, every field little-endian. Decoding checks each PDU's layout
/// exactly (list entries of one size, formats and lengths in range) and throws on anything
/// else; an opcode this type does not model throws `.unexpectedCode`, which a server answers
/// with Request Not Supported.
public enum ATTPDU: Equatable, Sendable {
    case errorResponse(requestOpcode: UInt8, handle: UInt16, error: ATTErrorCode)
    case exchangeMTURequest(clientMTU: UInt16)
    case exchangeMTUResponse(serverMTU: UInt16)
    case findInformationRequest(start: UInt16, end: UInt16)
    /// Handle and type pairs, all of one UUID size (Format 1: 16-bit, 2: 128-bit).
    case findInformationResponse([HandleType])
    case findByTypeValueRequest(start: UInt16, end: UInt16, type: UInt16, value: [UInt8])
    case findByTypeValueResponse([HandleRange])
    case readByTypeRequest(start: UInt16, end: UInt16, type: ATTUUID)
    /// Handle and value pairs, all values of one length.
    case readByTypeResponse([HandleValue])
    case readRequest(handle: UInt16)
    case readResponse([UInt8])
    case readBlobRequest(handle: UInt16, offset: UInt16)
    case readBlobResponse([UInt8])
    case readByGroupTypeRequest(start: UInt16, end: UInt16, type: ATTUUID)
    /// Group start, group end and value, all values of one length.
    case readByGroupTypeResponse([GroupValue])
    case writeRequest(handle: UInt16, value: [UInt8])
    case writeResponse
    case writeCommand(handle: UInt16, value: [UInt8])
    case notification(handle: UInt16, value: [UInt8])
    case indication(handle: UInt16, value: [UInt8])
    case confirmation

    public struct HandleType: Equatable, Sendable {
        public var handle: UInt16
        public var type: ATTUUID
        public init(handle: UInt16, type: ATTUUID) { self.handle = handle; self.type = type }
    }

    public struct HandleRange: Equatable, Sendable {
        public var start: UInt16
        public var end: UInt16
        public init(start: UInt16, end: UInt16) { self.start = start; self.end = end }
    }

    public struct HandleValue: Equatable, Sendable {
        public var handle: UInt16
        public var value: [UInt8]
        public init(handle: UInt16, value: [UInt8]) { self.handle = handle; self.value = value }
    }

    public struct GroupValue: Equatable, Sendable {
        public var start: UInt16
        public var end: UInt16
        public var value: [UInt8]
        public init(start: UInt16, end: UInt16, value: [UInt8]) { self.start = start; self.end = end; self.value = value }
    }

    public var opcode: UInt8 {
        switch self {
        case .errorResponse: 0x01
        case .exchangeMTURequest: 0x02
        case .exchangeMTUResponse: 0x03
        case .findInformationRequest: 0x04
        case .findInformationResponse: 0x05
        case .findByTypeValueRequest: 0x06
        case .findByTypeValueResponse: 0x07
        case .readByTypeRequest: 0x08
        case .readByTypeResponse: 0x09
        case .readRequest: 0x0A
        case .readResponse: 0x0B
        case .readBlobRequest: 0x0C
        case .readBlobResponse: 0x0D
        case .readByGroupTypeRequest: 0x10
        case .readByGroupTypeResponse: 0x11
        case .writeRequest: 0x12
        case .writeResponse: 0x13
        case .writeCommand: 0x52
        case .notification: 0x1B
        case .indication: 0x1D
        case .confirmation: 0x1E
        }
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 32)
        w.u8(opcode)
        switch self {
        case let .errorResponse(op, handle, error):
            w.u8(op)
            w.u16(handle)
            w.u8(error.rawValue)
        case .exchangeMTURequest(let mtu), .exchangeMTUResponse(let mtu): w.u16(mtu)
        case let .findInformationRequest(start, end):
            w.u16(start)
            w.u16(end)
        case .findInformationResponse(let entries):
            w.u8(entries.first.map { $0.type.octets.count == 2 ? 1 : 2 } ?? 1)
            for e in entries {
                w.u16(e.handle)
                w.octets(e.type.octets)
            }
        case let .findByTypeValueRequest(start, end, type, value):
            w.u16(start)
            w.u16(end)
            w.u16(type)
            w.octets(value)
        case .findByTypeValueResponse(let ranges):
            for r in ranges {
                w.u16(r.start)
                w.u16(r.end)
            }
        case let .readByTypeRequest(start, end, type), let .readByGroupTypeRequest(start, end, type):
            w.u16(start)
            w.u16(end)
            w.octets(type.octets)
        case .readByTypeResponse(let list):
            w.u8(UInt8(truncatingIfNeeded: 2 + (list.first?.value.count ?? 0)))
            for e in list {
                w.u16(e.handle)
                w.octets(e.value)
            }
        case .readRequest(let handle): w.u16(handle)
        case .readResponse(let v), .readBlobResponse(let v): w.octets(v)
        case let .readBlobRequest(handle, offset):
            w.u16(handle)
            w.u16(offset)
        case .readByGroupTypeResponse(let list):
            w.u8(UInt8(truncatingIfNeeded: 4 + (list.first?.value.count ?? 0)))
            for e in list {
                w.u16(e.start)
                w.u16(e.end)
                w.octets(e.value)
            }
        case let .writeRequest(handle, value), let .writeCommand(handle, value), let .notification(handle, value), let .indication(handle, value):
            w.u16(handle)
            w.octets(value)
        case .writeResponse, .confirmation: break
        }
        return w.bytes
    }

    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> ATTPDU {
        try ByteReader.whole(bytes) { r throws(DecodeError) in
            let op = try r.u8("Attribute Opcode")
            switch op {
            case 0x01:
                return .errorResponse(requestOpcode: try r.u8("Request Opcode In Error"), handle: try r.u16("Attribute Handle In Error"),
                                     error: ATTErrorCode(rawValue: try r.u8("Error Code")))
            case 0x02: return .exchangeMTURequest(clientMTU: try r.u16("Client Rx MTU"))
            case 0x03: return .exchangeMTUResponse(serverMTU: try r.u16("Server Rx MTU"))
            case 0x04: return .findInformationRequest(start: try r.u16("Starting Handle"), end: try r.u16("Ending Handle"))
            case 0x05:
                let format = try r.u8("Format")
                guard format == 1 || format == 2 else { throw .invalidValue(field: "Format", value: Int(format)) }
                let size = format == 1 ? 2 : 16
                var entries: [HandleType] = []
                repeat {
                    let handle = try r.u16("Handle")
                    guard let type = ATTUUID(octets: try r.octets(size, "UUID")) else { throw .invalidValue(field: "UUID", value: size) }
                    entries.append(HandleType(handle: handle, type: type))
                } while !r.isAtEnd
                return .findInformationResponse(entries)
            case 0x06:
                let start = try r.u16("Starting Handle"), end = try r.u16("Ending Handle")
                return .findByTypeValueRequest(start: start, end: end, type: try r.u16("Attribute Type"), value: Array(try r.octets(r.remaining, "Attribute Value")))
            case 0x07:
                var ranges: [HandleRange] = []
                repeat { ranges.append(HandleRange(start: try r.u16("Found Attribute Handle"), end: try r.u16("Group End Handle"))) } while !r.isAtEnd
                return .findByTypeValueResponse(ranges)
            case 0x08, 0x10:
                let start = try r.u16("Starting Handle"), end = try r.u16("Ending Handle")
                let rest = try r.octets(r.remaining, "Attribute Type")
                guard let type = ATTUUID(octets: rest) else { throw .invalidValue(field: "Attribute Type", value: rest.count) }
                return op == 0x08 ? .readByTypeRequest(start: start, end: end, type: type) : .readByGroupTypeRequest(start: start, end: end, type: type)
            case 0x09:
                let length = Int(try r.u8("Length"))
                guard length >= 2 else { throw .invalidValue(field: "Length", value: length) }
                var list: [HandleValue] = []
                repeat {
                    let handle = try r.u16("Attribute Handle")
                    list.append(HandleValue(handle: handle, value: Array(try r.octets(length - 2, "Attribute Value"))))
                } while !r.isAtEnd
                return .readByTypeResponse(list)
            case 0x0A: return .readRequest(handle: try r.u16("Attribute Handle"))
            case 0x0B: return .readResponse(Array(try r.octets(r.remaining, "Attribute Value")))
            case 0x0C: return .readBlobRequest(handle: try r.u16("Attribute Handle"), offset: try r.u16("Value Offset"))
            case 0x0D: return .readBlobResponse(Array(try r.octets(r.remaining, "Part Attribute Value")))
            case 0x11:
                let length = Int(try r.u8("Length"))
                guard length >= 4 else { throw .invalidValue(field: "Length", value: length) }
                var list: [GroupValue] = []
                repeat {
                    let start = try r.u16("Attribute Handle"), end = try r.u16("End Group Handle")
                    list.append(GroupValue(start: start, end: end, value: Array(try r.octets(length - 4, "Attribute Value"))))
                } while !r.isAtEnd
                return .readByGroupTypeResponse(list)
            case 0x12, 0x52, 0x1B, 0x1D:
                let handle = try r.u16("Attribute Handle")
                let value = Array(try r.octets(r.remaining, "Attribute Value"))
                switch op {
                case 0x12: return .writeRequest(handle: handle, value: value)
                case 0x52: return .writeCommand(handle: handle, value: value)
                case 0x1B: return .notification(handle: handle, value: value)
                default: return .indication(handle: handle, value: value)
                }
            case 0x13: return .writeResponse
            case 0x1E: return .confirmation
            default: throw .unexpectedCode(expected: -1, found: Int(op))
            }
        }
    }
}
