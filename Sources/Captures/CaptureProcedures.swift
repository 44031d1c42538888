import HCITransport
import ReflectorFirmware

/// The CS procedures of one btsnoop capture (of a phone's or an accessory's HCI traffic):
/// LE CS Subevent Result and Continue events (LE Meta 0x31/0x32) gathered into procedures,
/// with the configuration context the capture carries:
///
/// - LE CS Config Complete (0x2F): the local Role (which decides how step data is laid out:
///   mode 0 is 5 octets for the initiator, 3 for the reflector) and CS_Enhancements_1 bit 0
///   (inline PCT transfer);
/// - LE CS Procedure Enable Complete (0x30): Tone_Antenna_Config_Selection, hence N_AP.
///
/// Context is kept per connection handle and Config_ID. A configuration with no Config
/// Complete in the capture (a capture started mid-session) is decoded as `defaultRole`; if its
/// first Subevent Result does not decode that way but does as the other role, the other role
/// is used from then on. Mode-1/3 steps are read without PCT1/PCT2 (as this project's hosts do).
///
/// Reading never traps. A btsnoop format error (a truncated or malformed record) ends the
/// capture: the procedures completed before it are kept. An HCI event that cannot be decoded is
/// skipped, the procedure in progress for its configuration is dropped, and reading goes on.
/// Every such problem is listed in `problems`, in file order, with its byte offset.
public struct CaptureProcedures: Sendable {
    /// The procedures in the order their last subevent appeared.
    public private(set) var procedures: [CapturedProcedure] = []
    /// What could not be read, in file order; empty for a clean capture.
    public private(set) var problems: [CaptureProblem] = []
    /// The reflector's ranging data the capture's ACL traffic carried (a phone's capture of a
    /// Ranging Service session), in file order, once the capture has ended.
    public private(set) var rasProcedures: [RASProcedure] = []
    private var ras = RASSessionReader()

    /// The first problem, if any.
    public var firstProblem: CaptureProblem? { problems.first }

    private struct Key: Hashable {
        var adapter: UInt16 = 0
        var handle: UInt16
        var configID: UInt8
    }

    private struct Context {
        var role: CSRole?
        var inlinePCT: Bool?
        var antennaPaths: Int?
        var assembler: ProcedureAssembler?
    }

    private var contexts: [Key: Context] = [:]

    private struct PeerKey: Hashable {
        var adapter: UInt16
        var handle: UInt16
    }

    /// The peer of each connection the capture saw open.
    private var peerAddresses: [PeerKey: PeerAddress] = [:]
    /// Where each connection handle was opened (file offsets of its LE Connection Completes).
    private var openings: [PeerKey: [Int]] = [:]

    /// Which connection on `handle` the packet at `offset` belongs to: the LE Connection
    /// Completes for that handle before it (`CapturedProcedure.link`).
    public func link(adapter: UInt16, handle: UInt16, at offset: Int) -> Int {
        openings[PeerKey(adapter: adapter, handle: handle)]?.count { $0 < offset } ?? 0
    }
    private let defaultRole: CSRole

    /// An empty reading, to be fed record by record (`add(_:offset:)`, then `end(_:)`);
    /// `defaultRole` is the role assumed for configurations the capture has no Config Complete for.
    public init(defaultRole: CSRole = .initiator) {
        self.defaultRole = defaultRole
    }

    /// Reads a parsed capture.
    public init(_ capture: BTSnoopParseResult, defaultRole: CSRole = .initiator) {
        self.init(defaultRole: defaultRole)
        let datalink = capture.header?.datalink ?? .hciUART
        var offset = BTSnoopFileHeader.length
        for record in capture.records {
            add(record, offset: offset)
            offset += BTSnoopReader.recordHeaderLength + record.includedLength(in: datalink)
        }
        end(capture.error)
    }

    /// Parses and reads `bytes`, a whole btsnoop file.
    public init(bytes: [UInt8], defaultRole: CSRole = .initiator) {
        self.init(BTSnoopReader.parse(bytes), defaultRole: defaultRole)
    }

    /// Reads the next record of the capture, which starts at file offset `offset`.
    public mutating func add(_ record: BTSnoopRecord, offset: Int) {
        switch record.packet.indicator {
        case .event: add(record.packet.bytes, offset: offset, adapter: 0)
        case .aclData: ras.add(aclPacket: record.packet.bytes, direction: record.direction, adapter: 0, offset: offset)
        default: break
        }
    }

    /// Reads the next packet of a capture of another format (btsnoop 2001, pcap, pcapng): its
    /// events, kept apart per adapter (controller) as well as per connection and Config_ID.
    public mutating func add(_ packet: CapturedPacket) {
        switch packet.packet.indicator {
        case .event: add(packet.packet.bytes, offset: packet.offset, adapter: packet.adapter)
        case .aclData: ras.add(aclPacket: packet.packet.bytes, direction: packet.direction, adapter: packet.adapter, offset: packet.offset)
        default: break
        }
    }

    /// A capture of another format ended, cleanly or with a format error (its last problem).
    public mutating func end(_ error: CaptureFileError?) {
        if let error { problems.append(CaptureProblem(offset: error.offset, message: error.message)) }
        finishRAS()
    }

    private mutating func finishRAS() {
        ras.finish()
        rasProcedures = ras.procedures
    }

    /// The capture ended, cleanly or with a btsnoop format error (which is its last problem).
    public mutating func end(_ error: BTSnoopError?) {
        if let error { problems.append(CaptureProblem(error)) }
        finishRAS()
    }

    /// A procedure read by another reader (a vendor's log, another capture format), in file order.
    public mutating func append(_ procedure: CapturedProcedure) { procedures.append(procedure) }

    /// A problem found by another reader, in file order.
    public mutating func append(_ problem: CaptureProblem) { problems.append(problem) }

    private mutating func add(_ bytes: [UInt8], offset: Int, adapter: UInt16) {
        // Only LE Meta events with a CS subevent matter (and connections' peer addresses);
        // anything else is passed over unread.
        guard bytes.count >= 3, bytes[0] == HCIEventCode.leMeta else { return }
        let subevent = bytes[2]
        // LE Connection Complete (0x01) and LE Enhanced Connection Complete v1/v2 (0x0A, 0x29):
        // Status | Connection_Handle 2 | Role | Peer_Address_Type | Peer_Address 6 (Core 6.0
        // Vol 4 Part E §7.7.65.1, .10, .29); a successful one names the connection's peer.
        if subevent == 0x01 || subevent == 0x0A || subevent == 0x29 {
            guard bytes.count >= 14, bytes[3] == 0 else { return }
            let handle = (UInt16(bytes[4]) | UInt16(bytes[5]) << 8) & 0x0FFF
            peerAddresses[PeerKey(adapter: adapter, handle: handle)] = PeerAddress(bytes: Array(bytes[8..<14]).reversed(), random: bytes[7] & 1 == 1)
            openings[PeerKey(adapter: adapter, handle: handle), default: []].append(offset)
            return
        }
        guard (LECSConfigComplete.subeventCode...LECSSubeventResultContinue.subeventCode).contains(subevent) else { return }
        let event: HCIPacket
        do {
            event = try HCIPacket(event: bytes)
        } catch {
            return problems.append(CaptureProblem(offset: offset, subevent: subevent, error))
        }
        switch subevent {
        case LECSConfigComplete.subeventCode:
            do {
                // Times outside their tables (RootCanal's zeros) do not matter to the distance.
                let e = try LECSConfigComplete.decodeKeepingUnlistedTimes(try event.leSubeventBody(subevent))
                guard e.status == .success, e.action == .created, let c = e.configuration else { return }
                let key = Key(adapter: adapter, handle: e.connectionHandle, configID: e.configID)
                // A new configuration: its context starts afresh (keeping N_AP, which a later
                // Procedure Enable Complete sets again).
                contexts[key] = Context(role: c.role, inlinePCT: c.inlinePCT, antennaPaths: contexts[key]?.antennaPaths)
            } catch {
                problems.append(CaptureProblem(offset: offset, subevent: subevent, error))
            }
        case LECSProcedureEnableComplete.subeventCode:
            do {
                let e = try LECSProcedureEnableComplete.decode(try event.leSubeventBody(subevent))
                guard e.status == .success, e.enabled, let aci = e.antennaConfiguration else { return }
                contexts[Key(adapter: adapter, handle: e.connectionHandle, configID: e.configID), default: Context()].antennaPaths = aci.antennaPaths
            } catch {
                problems.append(CaptureProblem(offset: offset, subevent: subevent, error))
            }
        case LECSSubeventResult.subeventCode, LECSSubeventResultContinue.subeventCode:
            addResult(event, subevent: subevent, offset: offset, adapter: adapter)
        default:
            return
        }
    }

    private mutating func addResult(_ event: HCIPacket, subevent: UInt8, offset: Int, adapter: UInt16) {
        // Both events start with Connection_Handle (12 bits) and Config_ID.
        let body = event.parameters.dropFirst()
        guard body.count >= 3 else {
            return problems.append(CaptureProblem(offset: offset, subevent: subevent, DecodeError.truncated(field: "Config_ID", needed: 3 - body.count)))
        }
        let key = Key(adapter: adapter, handle: (UInt16(body[body.startIndex]) | UInt16(body[body.startIndex + 1]) << 8) & 0x0FFF,
                      configID: body[body.startIndex + 2])
        var context = contexts[key, default: Context()]
        if context.assembler == nil {
            context.assembler = ProcedureAssembler(role: context.role ?? guessRole(event))
        }
        do {
            if let results = try context.assembler!.add(event) {
                var p = CapturedProcedure(
                    results: results, connectionHandle: key.handle, role: context.assembler!.role, inlinePCT: context.inlinePCT,
                    antennaPaths: context.antennaPaths ?? results.antennaPaths, offset: offset)
                p.adapter = adapter
                p.peerAddress = peerAddresses[PeerKey(adapter: adapter, handle: key.handle)]
                p.link = openings[PeerKey(adapter: adapter, handle: key.handle)]?.count ?? 0
                procedures.append(p)
            }
        } catch {
            problems.append(CaptureProblem(offset: offset, subevent: subevent, error))
            // Drop the procedure in progress: its subevents can no longer be trusted.
            context.assembler = ProcedureAssembler(role: context.assembler!.role)
        }
        contexts[key] = context
    }

    /// The role the step data of `event` decodes as: `defaultRole` unless only the other one works.
    private func guessRole(_ event: HCIPacket) -> CSRole {
        let other: CSRole = defaultRole == .initiator ? .reflector : .initiator
        if (try? SubeventResultEvent.decode(packet: event, role: defaultRole)) == nil,
           (try? SubeventResultEvent.decode(packet: event, role: other)) != nil {
            return other
        }
        return defaultRole
    }
}
