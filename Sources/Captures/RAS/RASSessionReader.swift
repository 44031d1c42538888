import BLEHost
import HCITransport
import ReflectorFirmware

/// A phone's own capture of a Ranging Service session, read from its ACL traffic (the phone is
/// the GATT client; the reflector's step data reaches it as RAS ranging data, RAS 1.0 §3.2):
/// ATT PDUs per connection (`ATTStreams`), the RAS characteristics from the captured discovery
/// (`RASCharacteristics`), and each procedure's segments collected (`RASSegmentCollector`):
///
/// - **Real time**: notifications of Real-time Ranging Data; a procedure ends at its last
///   segment, or is reported with its lost segments when the next procedure's first segment
///   (or the end of the capture) comes first.
/// - **On demand**: Ranging Data Ready (0x2C18) indications, the client's Get Ranging Data
///   (Control Point 0x2C17, opcode 0x00), the segments on On-demand Ranging Data, Complete
///   Ranging Data Response, then ACK (0x01) or Retrieve Lost Ranging Data Segments (0x02), whose
///   segments fill the gaps; the procedure ends at the ACK, the next Get, or the end.
/// - Ranging Data Overwritten (0x2C19) marks the procedure it names.
///
/// Without discovery in the capture, a handle whose notifications or indications read as RAS
/// segments (a first segment carrying a ranging header with Config_ID 0–3 and an antenna-path
/// mask) is taken as ranging data, and one the client writes Get Ranging Data to as the Control
/// Point (on demand then); `RASProcedure.inferred` says so.
struct RASSessionReader {
    private struct Connection: Hashable {
        var adapter: UInt16
        var handle: UInt16
    }

    private struct Session {
        var characteristics = RASCharacteristics()
        /// Handles taken as ranging data / control point without discovery.
        var inferredData: Set<UInt16> = []
        var inferredControlPoint: UInt16?
        var realTime = RASSegmentCollector()
        var realTimeOffset = 0
        var realTimeInferred = false
        var onDemand = RASSegmentCollector()
        var onDemandCounter: UInt16?
        var onDemandOffset = 0
        var onDemandInferred = false
        /// Ranging counters the server said it overwrote, with where it said so.
        var overwritten: [UInt16: Int] = [:]
    }

    private var streams = ATTStreams()
    private var sessions: [Connection: Session] = [:]
    private(set) var procedures: [RASProcedure] = []

    /// Whether the capture had any ATT traffic of a Ranging Service.
    var sawRAS: Bool { !procedures.isEmpty }

    mutating func add(aclPacket bytes: [UInt8], direction: BTSnoopDirection?, adapter: UInt16, offset: Int) {
        for pdu in streams.add(bytes, direction: direction, adapter: adapter, offset: offset) { handle(pdu) }
    }

    /// The capture ended: procedures still collecting are reported as they stand.
    mutating func finish() {
        for key in sessions.keys.sorted(by: { ($0.adapter, $0.handle) < ($1.adapter, $1.handle) }) {
            var s = sessions[key]!
            flushRealTime(&s, key)
            flushOnDemand(&s, key)
            sessions[key] = s
        }
        // An Overwritten indication may come after the procedure's segments, or instead of them.
        for (key, s) in sessions {
            for (counter, offset) in s.overwritten {
                if let i = procedures.firstIndex(where: { $0.adapter == key.adapter && $0.connection == key.handle && $0.rangingCounter == counter }) {
                    procedures[i].overwritten = true
                    if procedures[i].data == nil { procedures[i].problem = Self.overwrittenProblem }
                } else {
                    let onDemand = s.characteristics.handle(of: .onDemandRangingData) != nil && s.characteristics.handle(of: .realTimeRangingData) == nil
                    procedures.append(RASProcedure(adapter: key.adapter, connection: key.handle, rangingCounter: counter, configID: 0,
                                                   mode: onDemand ? .onDemand : .realTime, inferred: s.characteristics.isEmpty, data: nil,
                                                   segments: 0, missing: [], repeated: 0, overwritten: true, problem: Self.overwrittenProblem, offset: offset))
                }
            }
        }
        procedures.sort { $0.offset < $1.offset }
    }

    private mutating func handle(_ p: ATTStreams.PDU) {
        let key = Connection(adapter: p.adapter, handle: p.connection)
        var s = sessions[key] ?? Session()
        defer { sessions[key] = s }
        let fromClient = p.fromClient
        s.characteristics.observe(p.pdu, fromClient: fromClient)
        switch p.pdu {
        case .notification(let h, let value) where !fromClient, .indication(let h, let value) where !fromClient:
            switch s.characteristics.role(of: h) {
            case .realTimeRangingData?:
                realTimeSegment(&s, key, value, p.offset, inferred: false)
            case .onDemandRangingData?:
                s.onDemand.add(value)
                s.onDemandOffset = p.offset
            case .rangingDataReady?:
                break
            case .rangingDataOverwritten?:
                if value.count >= 2 { s.overwritten[(UInt16(value[0]) | UInt16(value[1]) << 8) & 0x0FFF] = p.offset }
            case .controlPoint?, .features?:
                break
            case nil:
                guard s.characteristics.isEmpty else { break }
                // No discovery: RAS segments are known by their headers.
                if s.inferredData.contains(h) || Self.looksLikeFirstSegment(value) {
                    s.inferredData.insert(h)
                    if s.inferredControlPoint != nil {
                        s.onDemand.add(value)
                        s.onDemandOffset = p.offset
                        s.onDemandInferred = true
                    } else {
                        realTimeSegment(&s, key, value, p.offset, inferred: true)
                    }
                }
            }
        case .writeRequest(let h, let value) where fromClient, .writeCommand(let h, let value) where fromClient:
            let isControlPoint = s.characteristics.role(of: h) == .controlPoint
                || (s.characteristics.isEmpty && (s.inferredControlPoint == h || Self.isGet(value)))
            guard isControlPoint, let command = try? RASControlPointCommand.decode(value) else { break }
            if s.characteristics.isEmpty { s.inferredControlPoint = h }
            switch command {
            case .getRangingData(let counter):
                flushOnDemand(&s, key)
                s.onDemandCounter = counter & 0x0FFF
                s.onDemandOffset = p.offset
            case .ackRangingData(let counter):
                if s.onDemandCounter == counter & 0x0FFF { flushOnDemand(&s, key) }
            default:
                break
            }
        default:
            break
        }
    }

    private mutating func realTimeSegment(_ s: inout Session, _ key: Connection, _ value: [UInt8], _ offset: Int, inferred: Bool) {
        guard let octet = value.first else { return }
        let h = RASSegmentationHeader(octet: octet)
        if h.isFirst, !s.realTime.isEmpty { flushRealTime(&s, key) }
        s.realTime.add(value)
        s.realTimeOffset = offset
        s.realTimeInferred = inferred
        if h.isLast, s.realTime.body != nil { flushRealTime(&s, key) }
    }

    private mutating func flushRealTime(_ s: inout Session, _ key: Connection) {
        guard !s.realTime.isEmpty else { return }
        procedures.append(Self.procedure(s.realTime, key: key, mode: .realTime, counter: nil, inferred: s.realTimeInferred,
                                         overwritten: s.overwritten, offset: s.realTimeOffset))
        s.realTime = RASSegmentCollector()
    }

    private mutating func flushOnDemand(_ s: inout Session, _ key: Connection) {
        guard !s.onDemand.isEmpty || s.onDemandCounter != nil else { return }
        procedures.append(Self.procedure(s.onDemand, key: key, mode: .onDemand, counter: s.onDemandCounter,
                                         inferred: s.onDemandInferred || s.characteristics.isEmpty,
                                         overwritten: s.overwritten, offset: s.onDemandOffset))
        s.onDemand = RASSegmentCollector()
        s.onDemandCounter = nil
    }

    private static func procedure(_ c: RASSegmentCollector, key: Connection, mode: RASProcedure.Mode, counter: UInt16?, inferred: Bool,
                                  overwritten: [UInt16: Int], offset: Int) -> RASProcedure {
        let header = c.header
        let ranging = header?.counter ?? counter ?? 0
        var p = RASProcedure(adapter: key.adapter, connection: key.handle, rangingCounter: ranging, configID: header?.configID ?? 0,
                             mode: mode, inferred: inferred, data: nil, segments: c.segmentCount, missing: c.missing, repeated: c.repeated,
                             overwritten: overwritten[ranging] != nil, problem: nil, offset: offset)
        if let body = c.body {
            do throws(DecodeError) {
                p.data = try RangingData.decode(body, senderRole: .reflector)
            } catch {
                p.problem = "its ranging data does not decode: \(CaptureProblem.describe(error))"
            }
        } else if c.isEmpty {
            p.problem = "no ranging data was sent for it"
        } else {
            p.problem = "\(c.missing.count) of its ranging-data segments never arrived"
        }
        if p.overwritten, p.data == nil { p.problem = overwrittenProblem }
        return p
    }

    static let overwrittenProblem = "the reflector overwrote its ranging data before it was read"

    /// A first segment whose ranging header is plausible: Config_ID 0–3, 1–4 antenna paths.
    static func looksLikeFirstSegment(_ value: [UInt8]) -> Bool {
        guard value.count >= 5, RASSegmentationHeader(octet: value[0]).isFirst else { return false }
        let configID = value[2] >> 4
        let mask = value[4]
        return configID <= 3 && mask & 0xF0 == 0 && mask != 0
    }

    /// Whether a written value reads as Get Ranging Data.
    static func isGet(_ value: [UInt8]) -> Bool {
        if case .getRangingData? = try? RASControlPointCommand.decode(value) { return true }
        return false
    }
}
