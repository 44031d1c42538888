import BLEHost
import HCITransport
import ReflectorFirmware

/// The ATT PDUs of a capture's ACL traffic: each ACL packet's header (Core 6.0 Vol 4 Part E
/// §5.4.2: Connection_Handle 12 bits, Packet_Boundary_Flag 2, Broadcast_Flag 2,
/// Data_Total_Length 2) taken off, the fragments of each connection and direction joined into
/// L2CAP basic frames (`L2CAPReassembler`, Core 6.0 Vol 3 Part A §3.1), and the frames of the
/// Attribute Protocol's fixed channel (0x0004) decoded (`ATTPDU`, Core 6.0 Vol 3 Part F §3.4).
/// Fragments the reassembler drops and PDUs that do not decode are counted, not fatal: a
/// capture is read on.
struct ATTStreams {
    struct PDU {
        var adapter: UInt16
        var connection: UInt16
        /// `.hostToController`: the capturing host sent it (the phone is the GATT client); nil
        /// when the capture does not say (LINKTYPE 187).
        var direction: BTSnoopDirection?
        var pdu: ATTPDU
        var offset: Int

        /// Whether the GATT client sent it: from the direction, else from what the PDU is
        /// (requests, commands and confirmations go client to server; Core 6.0 Vol 3 Part F §3.3).
        var fromClient: Bool {
            if let direction { return direction == .hostToController }
            switch pdu {
            case .exchangeMTURequest, .findInformationRequest, .findByTypeValueRequest, .readByTypeRequest, .readRequest, .readBlobRequest,
                 .readByGroupTypeRequest, .writeRequest, .writeCommand, .confirmation:
                return true
            default:
                return false
            }
        }
    }

    private struct Stream: Hashable {
        var adapter: UInt16
        var connection: UInt16
        var direction: BTSnoopDirection?
    }

    private var streams: [Stream: L2CAPReassembler] = [:]
    /// ACL fragments dropped (malformed header, or by the reassembler) and ATT PDUs that did not decode.
    private(set) var droppedFragments = 0
    private(set) var undecodedPDUs = 0

    /// The ATT PDUs completed by one ACL packet (`bytes` without the H4 indicator).
    mutating func add(_ bytes: [UInt8], direction: BTSnoopDirection?, adapter: UInt16, offset: Int) -> [PDU] {
        guard bytes.count >= 4 else {
            droppedFragments += 1
            return []
        }
        let handleAndFlags = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
        let length = Int(bytes[2]) | Int(bytes[3]) << 8
        guard length == bytes.count - 4 else {
            droppedFragments += 1
            return []
        }
        let key = Stream(adapter: adapter, connection: handleAndFlags & 0x0FFF, direction: direction)
        var reassembler = streams[key] ?? L2CAPReassembler(maximumPayload: 1 << 16)
        let outcomes = reassembler.add(boundary: UInt8(truncatingIfNeeded: handleAndFlags >> 12) & 0b11, bytes[4...])
        streams[key] = reassembler
        var out: [PDU] = []
        for outcome in outcomes {
            switch outcome {
            case .frame(let frame):
                guard frame.channel == L2CAPFrame.attributeProtocol else { continue }
                if let pdu = try? ATTPDU.decode(frame.payload) {
                    out.append(PDU(adapter: adapter, connection: key.connection, direction: direction, pdu: pdu, offset: offset))
                } else {
                    undecodedPDUs += 1
                }
            case .incomplete: break
            case .dropped: droppedFragments += 1
            }
        }
        return out
    }
}
