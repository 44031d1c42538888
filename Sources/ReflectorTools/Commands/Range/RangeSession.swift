import BLEHost
import PhoneEmulation
import RangingEstimation
import ReflectorFirmware

/// The phone's side of `range` on a real board, without the I/O: this project's initiator host
/// (it resets the board, scans for the reflector, connects, encrypts and runs CS) and around it
/// what a user of a real board needs: a distance per procedure (the chosen estimator, then the
/// session's outlier filter and smoother), aborted procedures named, and after a lost link a
/// fresh host that finds the reflector again.
///
/// The host is `PhoneHost`: it pairs (or encrypts with a bond key), and takes the reflector's
/// results from its Ranging Service when the configuration goes without inline PCT (the
/// reflector lacks it, or `alwaysRAS`).
struct RangeSession: BoardHost {
    typealias Row = ProcedureRow

    enum Output: Equatable {
        /// What the phone's host reported: the link up, pairing, the Ranging Service, compliance.
        case phone(PhoneHost.Output)
        case procedure(Row)
        /// Procedures are enabled on this link (the configuration agreed, the parameters set).
        case enabled(LECSProcedureEnableComplete)
        /// A procedure ended early: the reasons the controller gave.
        case aborted(procedureCounter: UInt16, AbortReasons)
        /// The link went down with this reason; `reconnect()` starts over.
        case lost(HCIStatus)
        /// The reflector refused to start procedures; the session tries again shortly.
        case startRefused(HCIStatus)
        /// Set-up or ranging failed for a reason reconnecting does not mend.
        case failed(HostError)
        /// A procedure under way when the link or the board went: no distance for it.
        case procedureLost(counter: UInt16)
        /// Procedures the board reported nothing of (the counter skipped them): no distance.
        case proceduresMissed(first: UInt16, count: Int)
        /// The board departs from the spec in a way the host tolerates (said once a set-up).
        case deviation(ControllerDeviation)
    }

    let estimator: any DistanceEstimator
    private(set) var phone: PhoneHost
    var host: InitiatorHost { phone.host }
    var bonds: [Bond] { phone.bonds }
    private var smoother = DistanceSmoother()
    private(set) var connections = 0
    /// Keep the first procedure's tones (for `--plot`), and them once kept.
    var keepsFirstTones = false
    private(set) var firstTones: ToneSet?
    /// Keep each procedure's tones until the next (for the live view), and them.
    var keepsLastTones = false
    private(set) var lastTones: ToneSet?
    /// When to try LE CS Procedure Enable again (s into the run), and how many tries are left.
    private var retryAt: Double?
    private var retriesLeft = Self.startRetries
    /// A refused start is tried again this often, this many times (a reflector's host allows
    /// its role when it is ready: Nordic's on connection, others after pairing or GATT).
    static let startRetryInterval = 0.5, startRetries = 20
    /// The link's handle while it is up (from Connection Complete until Disconnection Complete).
    var connectedHandle: UInt16? { phone.connectedHandle }
    private var now = 0.0

    /// `alwaysRAS`: no inline PCT even if the reflector supports it. `requireIOSCompliance`:
    /// refuse a reflector an iPhone would refuse, instead of ranging it with a warning.
    /// `bonds` and `irk`: what a bond file kept from earlier runs.
    /// `procedureCount`: Max_Procedure_Count (0: until disabled). `mainMode` and `rttType`: what
    /// the configuration asks for (mode 1 or 3 time round trips, whose reflector half comes over
    /// RAS even with inline PCT).
    init(plan: InitiatorHost.ConnectionPlan, estimator: any DistanceEstimator, alwaysRAS: Bool = false, requireIOSCompliance: Bool = false,
         procedureCount: UInt16 = 0, mainMode: CSMode = .mode2, rttType: RTTType = .accessAddressOnly, bonds: [Bond] = [], irk: [UInt8]? = nil) {
        let loopback = LoopbackSetup()
        var configuration = loopback.configuration
        if alwaysRAS { configuration.inlinePCT = false }
        configuration.mainMode = mainMode
        configuration.rttType = rttType
        var parameters = loopback.parameters
        parameters.maxProcedureCount = procedureCount
        var setup = InitiatorHost.Setup(connectionHandle: 0, configuration: configuration, parameters: parameters,
                                        requireIOSCompliance: requireIOSCompliance, connect: plan)
        setup.inlinePCTOnlyIfSupported = true
        setup.waitsForRangingDataClient = true
        self.estimator = estimator
        phone = PhoneHost(setup: setup, bonds: bonds, irk: irk, random: .system)
    }

    mutating func nextCommand() -> HCIPacket? { phone.nextCommand() }

    /// ACL packets for the board now (SMP and the RAS client's requests).
    mutating func nextACL() -> [HCIPacket] { phone.nextACL() }

    /// An ACL packet from the board.
    mutating func handleACL(_ packet: HCIPacket, now time: Double) -> [Output] {
        now = time
        return translate(phone.handleACL(packet, now: time))
    }

    /// The user typed the passkey the reflector shows.
    mutating func enterPasskey(_ value: UInt32) -> [Output] { translate(phone.enterPasskey(value, now: now)) }

    /// Lets time pass (`time` s into the run): the SMP timeout; a refused start is tried again when due.
    mutating func tick(now time: Double) -> [Output] {
        now = time
        let out = translate(phone.tick(now: time))
        guard let at = retryAt, time >= at else { return out }
        retryAt = nil
        phone.retryProcedureEnable()
        return out
    }

    /// Ends the link (Disconnect, Remote User Terminated Connection, as a phone ending its session).
    mutating func disconnect(_ handle: UInt16) {
        phone.send(Disconnect(connectionHandle: handle, reason: .remoteUserTerminatedConnection))
    }

    /// The command the board has not answered yet.
    var unansweredOpcode: UInt16? { host.unansweredOpcode }
    var isScanning: Bool { host.isScanning }
    /// The event the host waits for, by name (nil: none, or ranging).
    var awaitedEvent: String? { host.awaitedEvent }
    var isRanging: Bool { host.isRanging }

    /// One event from the board, `time` seconds into the run.
    mutating func handleEvent(_ packet: HCIPacket, now time: Double) -> [Output] {
        now = time
        return translate(phone.handleEvent(packet, now: time))
    }

    /// The phone host's outputs as the session's (distances estimated; a refused start retried).
    private mutating func translate(_ outputs: [PhoneHost.Output]) -> [Output] {
        var out: [Output] = []
        for o in outputs {
            switch o {
            case .host(let h): out += translate(h)
            case .connected:
                connections += 1
                out.append(.phone(o))
            case .controllerRestarted:
                retryAt = nil
                retriesLeft = Self.startRetries
                out.append(.phone(o))
            default: out.append(.phone(o))
            }
        }
        return out
    }

    private mutating func translate(_ o: InitiatorHost.Output) -> [Output] {
        switch o {
        case let .procedure(p, reflectorSteps):
            var out: [Output] = []
            if p.isAborted, let reasons = p.subevents.last?.abortReasons { out.append(.aborted(procedureCounter: p.procedureCounter, reasons)) }
            let tones = ToneSetBuilder.tones(initiator: p.steps, reflector: reflectorSteps, antennaPaths: p.antennaPaths,
                                             inlinePCT: phone.host.usesInlinePCT)
            if keepsFirstTones && firstTones == nil { firstTones = tones }
            if keepsLastTones { lastTones = tones }
            let estimate = estimator.estimate(tones, roundTrips: RoundTripTimeBuilder.times(initiator: p.steps, reflector: reflectorSteps))
            let update = smoother.update(tones: tones, estimate: estimate, at: now, estimator: estimator)
            out.append(.procedure(Row(procedureCounter: p.procedureCounter, time: now, raw: estimate?.distance,
                                      smoothed: estimate == nil ? nil : update.distance, quality: estimate?.quality,
                                      pooled: update.still == nil ? 0 : update.stillProcedures)))
            return out
        case .failed(.linkLost(let reason)):
            smoother.forgetScene()
            return lostInFlight() + [.lost(reason)]
        case .procedureLost(let counter): return [.procedureLost(counter: counter)]
        case .deviation(let d): return [.deviation(d)]
        case .proceduresMissed(let first, let count): return [.proceduresMissed(first: first, count: count)]
        case .failed(.procedureFailed(event: .proceduresEnabled, let status)) where retriesLeft > 0:
            retriesLeft -= 1
            retryAt = now + Self.startRetryInterval
            return [.startRefused(status)]
        case .failed(let e): return [.failed(e)]
        case .enabled(let e) where e.enabled: return [.enabled(e)]
        case .enabled, .disabled, .needsRangingData, .connected, .notIOSCompliant: return []
        }
    }

    /// The procedures the lost link took with it.
    private func lostInFlight() -> [Output] { phone.host.proceduresInFlight.map { .procedureLost(counter: $0) } }

    /// Starts the board over after `fault` (the loop saw the line lose sync).
    mutating func restartController(_ fault: ControllerFault) -> [Output] { translate(phone.restartController(fault)) }

    /// Starts over after a lost link: a fresh host resets the board and looks for the reflector
    /// again (and encrypts with the bond it made, if it paired).
    mutating func reconnect() {
        phone.restart()
        retryAt = nil
        retriesLeft = Self.startRetries
    }
}
