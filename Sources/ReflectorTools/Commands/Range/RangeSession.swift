import BLEHost
import PhoneEmulation
import RangingEstimation
import ReflectorFirmware

/// The phone's side of `range` on a real board, without the I/O: this project's initiator host
/// (it resets the board, scans for the reflector, connects, encrypts and runs CS) and around it
/// what a user of a real board needs: a distance per procedure (the chosen estimator, then the
/// session's outlier filter and smoother), aborted procedures named, and after a lost link a
/// fresh host that finds the reflector again.
struct RangeSession {
    /// One procedure's figures.
    struct Row: Equatable, Sendable {
        var procedureCounter: UInt16
        /// Seconds since the run started.
        var time: Double
        var raw: Double?
        var smoothed: Double?
        var quality: Double?
    }

    enum Output: Equatable {
        /// The link to the reflector is up (its address, and whether it is a random one).
        case connected(address: UInt64, random: Bool)
        case procedure(Row)
        /// A procedure ended early: the reasons the controller gave.
        case aborted(procedureCounter: UInt16, AbortReasons)
        /// The link went down with this reason; `reconnect()` starts over.
        case lost(HCIStatus)
        /// The reflector refused to start procedures; the session tries again shortly.
        case startRefused(HCIStatus)
        /// Set-up or ranging failed for a reason reconnecting does not mend.
        case failed(HostError)
    }

    let setup: InitiatorHost.Setup
    let estimator: any DistanceEstimator
    private(set) var host: InitiatorHost
    private var tracker = DistanceTracker()
    private(set) var connections = 0
    /// Keep the first procedure's tones (for `--plot`), and them once kept.
    var keepsFirstTones = false
    private(set) var firstTones: ToneSet?
    /// When to try LE CS Procedure Enable again (s into the run), and how many tries are left.
    private var retryAt: Double?
    private var retriesLeft = Self.startRetries
    /// A refused start is tried again this often, this many times (a reflector's host allows
    /// its role when it is ready: Nordic's on connection, others after pairing or GATT).
    static let startRetryInterval = 0.5, startRetries = 20
    /// The link's handle while it is up (from Connection Complete until Disconnection Complete).
    private(set) var connectedHandle: UInt16?
    /// Commands of the session's own (Disconnect), sent before the host's next.
    private var own: [HCIPacket] = []

    init(plan: InitiatorHost.ConnectionPlan, estimator: any DistanceEstimator) {
        let loopback = LoopbackSetup()
        setup = InitiatorHost.Setup(connectionHandle: 0, configuration: loopback.configuration, parameters: loopback.parameters, connect: plan)
        self.estimator = estimator
        host = InitiatorHost(setup: setup)
    }

    mutating func nextCommand() -> [UInt8]? {
        if !own.isEmpty { return own.removeFirst().bytes }
        return host.nextCommand()
    }

    /// Lets time pass (`time` s into the run): a refused start is tried again when due.
    mutating func tick(at time: Double) {
        guard let at = retryAt, time >= at else { return }
        retryAt = nil
        host.retryProcedureEnable()
    }

    /// Ends the link (Disconnect, Remote User Terminated Connection, as a phone ending its session).
    mutating func disconnect(_ handle: UInt16) {
        own.append(Disconnect(connectionHandle: handle, reason: .remoteUserTerminatedConnection).packet)
    }

    /// The command the board has not answered yet.
    var unansweredOpcode: UInt16? { host.unansweredOpcode }
    var isScanning: Bool { host.isScanning }
    /// The event the host waits for, by name (nil: none, or ranging).
    var awaitedEvent: String? { host.awaitedEvent }
    var isRanging: Bool { host.isRanging }

    /// One event from the board, `time` seconds into the run.
    mutating func handle(_ bytes: [UInt8], at time: Double) -> [Output] {
        var out: [Output] = []
        let wasConnecting = host.setup.connect?.peerAddress
        for o in host.handleEvent(bytes) {
            switch o {
            case let .procedure(p, reflectorSteps):
                if p.isAborted, let reasons = p.subevents.last?.abortReasons { out.append(.aborted(procedureCounter: p.procedureCounter, reasons)) }
                let tones = ToneSetBuilder.tones(initiator: p.steps, reflector: reflectorSteps, antennaPaths: p.antennaPaths)
                if keepsFirstTones && firstTones == nil { firstTones = tones }
                let estimate = estimator.estimate(tones)
                let smoothed = tracker.update(estimate?.distance, at: time)
                out.append(.procedure(Row(procedureCounter: p.procedureCounter, time: time, raw: estimate?.distance,
                                          smoothed: estimate == nil ? nil : smoothed, quality: estimate?.quality)))
            case .failed(.linkLost(let reason)): out.append(.lost(reason))
            case .failed(.procedureFailed(event: InitiatorHost.procedureEnableEvent, let status)) where retriesLeft > 0:
                retriesLeft -= 1
                retryAt = time + Self.startRetryInterval
                out.append(.startRefused(status))
            case .failed(let e): out.append(.failed(e))
            case .enabled, .disabled: break
            }
        }
        guard let packet = try? HCIPacket(event: bytes) else { return out }
        // LE (Enhanced) Connection Complete with success: the link is up.
        if let code = packet.leSubeventCode,
           [LESubeventCode.connectionComplete, LESubeventCode.enhancedConnectionComplete, LESubeventCode.enhancedConnectionCompleteV2].contains(code),
           packet.parameters.count > 3, packet.parameters[1] == 0, let plan = host.setup.connect, wasConnecting != nil {
            connections += 1
            connectedHandle = (UInt16(packet.parameters[2]) | UInt16(packet.parameters[3]) << 8) & 0x0FFF
            out.insert(.connected(address: plan.peerAddress, random: plan.peerAddressIsRandom), at: 0)
        }
        if packet.eventCode == DisconnectionComplete.eventCode, let e = try? DisconnectionComplete.decode(packet: packet), e.connectionHandle == connectedHandle {
            connectedHandle = nil
        }
        return out
    }

    /// Starts over after a lost link: a fresh host resets the board and looks for the reflector again.
    mutating func reconnect() {
        host = InitiatorHost(setup: setup)
        retryAt = nil
        retriesLeft = Self.startRetries
    }
}
