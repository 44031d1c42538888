import ReflectorFirmware

/// What every host of this project stands on (the role Zephyr's `bt_dev` and Bumble's `Host`
/// play): the one command scheduler, the controller's facts as set-up learnt them, the one
/// connection record with its L2CAP link, and the one clock. A host hands each packet from
/// the controller to `receive`, which decodes it once (`HostEvent`) and keeps what the core
/// keeps; then every component of the host sees the same event and the same `now`.
public struct HostCore: Sendable {
    public var scheduler = CommandScheduler()
    public private(set) var controller = ControllerFacts()
    /// The link to the peer, from LE Connection Complete to Disconnection Complete.
    public private(set) var connection: HostConnection?
    /// Seconds on the host's clock, as last given to `receive` or `advance`.
    public private(set) var now: Double = 0
    /// Where the controller departed from the spec, each kind once since set-up began.
    public private(set) var deviations: [ControllerDeviation] = []
    private var deviationsTaken = 0

    public init() {}

    /// Time passes.
    public mutating func advance(to time: Double) { now = max(now, time) }

    /// One packet from the controller (an event; ACL data goes to `receiveACL`).
    public mutating func receive(_ packet: HCIPacket, now time: Double) -> HostEvent {
        advance(to: time)
        let event = HostEvent.decode(packet, scheduler: &scheduler)
        switch event {
        case .commandAnswered(let answer):
            controller.learn(from: answer)
            if answer.opcode == HCIOpcode.readLocalSupportedCommands, let commands = controller.supportedCommands { scheduler.supportedCommands = commands }
            if answer.opcode == HCIOpcode.reset { connection = nil }
        case .connected(let c) where c.status == .success:
            connection = HostConnection(c, buffers: controller.aclBuffers)
        case .disconnected(let handle, _) where handle == connection?.handle:
            connection = nil
        case let .encryptionChanged(handle, _, enabled) where handle == connection?.handle:
            connection?.encrypted = enabled
        case .completedPackets:
            connection?.link.handleEvent(packet)
        case .csConfigured(let e):
            if let t = e.configuration?.timing, let d = ControllerDeviation.unlistedTimes(t) { note(d) }
        case let .malformed(name, error):
            note(.undecodableEvent(name: name, why: "\(error)", octets: ControllerDeviation.octets(packet)))
        default:
            break
        }
        return event
    }

    /// Notes a deviation, unless one of its kind was noted since set-up began.
    public mutating func note(_ deviation: ControllerDeviation) {
        guard !deviations.contains(where: { $0.kind == deviation.kind }) else { return }
        deviations.append(deviation)
    }

    /// The deviations noted since the last call, for a host to report.
    public mutating func takeDeviations() -> [ControllerDeviation] {
        defer { deviationsTaken = deviations.count }
        return Array(deviations[deviationsTaken...])
    }

    /// An ACL packet from the controller: the L2CAP frames it completes on the connection.
    public mutating func receiveACL(_ packet: HCIPacket, now time: Double) -> [L2CAPFrame] {
        advance(to: time)
        return connection?.link.receive(packet) ?? []
    }

    /// Queues an L2CAP frame on the connection (dropped when there is none).
    public mutating func send(_ frame: L2CAPFrame) { connection?.link.send(frame) }

    /// ACL packets the controller has buffers for now.
    public mutating func nextACL() -> [HCIPacket] { connection?.link.sendable() ?? [] }

    /// The next command for the controller, if one may go.
    public mutating func nextCommand() -> HCIPacket? { scheduler.next() }
}

/// The connection record: its handle, peer, this side's role, its L2CAP link over the
/// controller's ACL buffers and whether it is encrypted.
public struct HostConnection: Sendable {
    public let handle: UInt16
    public let peer: PairingAddress
    public let role: LinkRole
    public var link: L2CAPLink
    public var encrypted = false

    init(_ c: ConnectionEstablished, buffers: ACLBuffers) {
        handle = c.handle
        peer = c.peer
        role = c.role
        link = L2CAPLink(connectionHandle: c.handle, bufferLength: buffers.length, bufferCount: buffers.count)
    }
}

/// The controller's LE ACL data buffers (LE Read Buffer Size, Core 6.0 Vol 4 Part E §7.8.2).
public struct ACLBuffers: Sendable, Equatable {
    /// Octets each.
    public var length: Int
    public var count: Int

    /// Until the controller says: the LE minimum, one buffer of 27 octets.
    public static let minimum = ACLBuffers(length: 27, count: 1)
}

/// What the controller said about itself in the answers set-up asked for.
public struct ControllerFacts: Sendable, Equatable {
    /// Supported_Commands (Read Local Supported Commands, §7.4.2): 64 octets.
    public var supportedCommands: [UInt8]?
    /// LE_Features (LE Read Local Supported Features, §7.8.3).
    public var leFeatures: UInt64?
    /// The public address (Read BD_ADDR, §7.4.6).
    public var localAddress: UInt64?
    public var aclBuffers = ACLBuffers.minimum

    mutating func learn(from answer: CommandAnswer) {
        guard answer.status == .success, !answer.isStatusOnly else { return }
        var r = ByteReader(answer.returnParameters.dropFirst())
        switch answer.opcode {
        case HCIOpcode.readLocalSupportedCommands:
            if let octets = try? r.octets(64, "Supported_Commands") { supportedCommands = Array(octets) }
        case HCIOpcode.leReadLocalSupportedFeatures:
            leFeatures = try? r.u64("LE_Features")
        case HCIOpcode.readBDAddr:
            localAddress = try? r.uint(6, "BD_ADDR")
        case HCIOpcode.leReadBufferSize:
            // A length of 0: the LE link shares the BR/EDR buffers; keep the LE minimum.
            if let length = try? r.u16("LE_ACL_Data_Packet_Length"), let count = try? r.u8("Total_Num_LE_ACL_Data_Packets"), length > 0 {
                aclBuffers = ACLBuffers(length: Int(length), count: max(1, Int(count)))
            }
        default:
            break
        }
    }
}
