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
/// Inline PCT when the reflector supports it; otherwise (or with `alwaysRAS`) the reflector's
/// results come from its Ranging Service: once the link is encrypted the session's GATT client
/// (`RASClient` over `L2CAPLink`, ATT on its fixed channel) finds the service, and procedures
/// start only after it has subscribed.
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
        /// The reflector lacks what an iPhone requires (the session ranges it all the same).
        case notIOSCompliant([IOSRequirement])
        /// The reflector's results come over RAS, in this mode.
        case rangingData(RASClient.Mode)
        /// Without inline PCT, the reflector's Ranging Service cannot serve its results: why.
        case rangingDataUnavailable(String)
        /// The reflector's RAS dropped or refused a procedure's data (that procedure is lost).
        case rangingDataLost(rangingCounter: UInt16, String)
        /// Pairing: the user must type the passkey the reflector shows (`enterPasskey`).
        case passkeyNeeded
        /// Pairing: show this number (Numeric Comparison; the session confirms it).
        case compare(UInt32)
        case paired(PairingResult)
        /// Encrypted with a bond this run made earlier (no new pairing).
        case encryptedWithBond
        case pairingFailed(SMPFailureReason, byPeer: Bool)
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

    /// The ATT bearer and the RAS client, from encryption until the link goes down.
    private var link: L2CAPLink?
    private var ras: RASClient?
    /// The configuration goes without inline PCT (the host asked for the RAS client), and why
    /// the reflector's Ranging Service cannot serve (it matters only then).
    private var needsRAS = false
    private var rasUnavailable: String?
    /// Without a bond key: this link's pairing, and the bonds this run made (a reconnection
    /// encrypts with its bond instead of pairing again).
    private var pairing: SecureConnectionsPairing?
    private(set) var bonds: [Bond] = []
    /// This side's IRK, distributed with its identity (the board's public address).
    private let irk = (try? SecureRandom.bytes(16)) ?? [UInt8](repeating: 0, count: 16)
    private var now = 0.0

    /// `alwaysRAS`: no inline PCT even if the reflector supports it. `requireIOSCompliance`:
    /// refuse a reflector an iPhone would refuse, instead of ranging it with a warning.
    init(plan: InitiatorHost.ConnectionPlan, estimator: any DistanceEstimator, alwaysRAS: Bool = false, requireIOSCompliance: Bool = false) {
        let loopback = LoopbackSetup()
        var configuration = loopback.configuration
        if alwaysRAS { configuration.inlinePCT = false }
        var setup = InitiatorHost.Setup(connectionHandle: 0, configuration: configuration, parameters: loopback.parameters,
                                        requireIOSCompliance: requireIOSCompliance, connect: plan)
        setup.inlinePCTOnlyIfSupported = true
        setup.waitsForRangingDataClient = true
        self.setup = setup
        self.estimator = estimator
        host = InitiatorHost(setup: setup)
    }

    mutating func nextCommand() -> [UInt8]? {
        if !own.isEmpty { return own.removeFirst().bytes }
        return host.nextCommand()
    }

    /// ACL packets for the board now (the RAS client's requests, within the board's buffers).
    mutating func nextACL() -> [HCIPacket] {
        guard var l = link else { return [] }
        while let pdu = ras?.nextPDU() { l.send(L2CAPFrame(channel: L2CAPFrame.attributeProtocol, payload: pdu.encode())) }
        let packets = l.sendable()
        link = l
        return packets
    }

    /// An ACL packet from the board: ATT from the reflector's GATT server reaches the RAS client.
    mutating func handleACL(_ packet: HCIPacket) -> [Output] {
        guard var l = link else { return [] }
        let frames = l.receive(packet)
        link = l
        var out: [Output] = []
        for f in frames {
            if f.channel == L2CAPFrame.securityManager, var p = pairing {
                let actions = p.receive(f.payload, now: now)
                pairing = p
                out += perform(actions)
                continue
            }
            guard f.channel == L2CAPFrame.attributeProtocol, let pdu = try? ATTPDU.decode(f.payload), var client = ras else { continue }
            let events = client.receive(pdu)
            ras = client
            for e in events { out += handleRAS(e) }
        }
        return out
    }

    /// The user typed the passkey the reflector shows.
    mutating func enterPasskey(_ value: UInt32) -> [Output] {
        guard var p = pairing else { return [] }
        let actions = p.enterPasskey(value, now: now)
        pairing = p
        return perform(actions)
    }

    /// Starts securing a new link without a bond key: the bond from earlier in this run, else pairing.
    private mutating func secure(peer: PairingAddress) -> [Output] {
        if let bond = bonds.first(where: { $0.matches(peer) }) {
            host.encrypt(with: bond.longTermKey)
            return [.encryptedWithBond]
        }
        guard let keys = try? P256KeyPair.generate() else { return [.pairingFailed(.unspecifiedReason, byPeer: false)] }
        let local = PairingAddress(host.localAddress ?? 0, random: false)
        var p = SecureConnectionsPairing(role: .initiator, configuration: .init(ioCapability: .keyboardDisplay, identity: PairingIdentity(irk: irk, address: local)),
                                         local: local, peer: peer, keyPair: keys, now: now) { (try? SecureRandom.bytes($0)) ?? [] }
        let actions = p.start(now: now)
        pairing = p
        return perform(actions)
    }

    private mutating func perform(_ actions: [SecureConnectionsPairing.Action]) -> [Output] {
        var out: [Output] = []
        for a in actions {
            switch a {
            case .send(let pdu): link?.send(L2CAPFrame(channel: L2CAPFrame.securityManager, payload: pdu.encode()))
            case .startEncryption(let key): host.encrypt(with: key)
            case .requestPasskey: out.append(.passkeyNeeded)
            case .confirmNumber(let n):
                // A bench tool: the number is shown and taken as matching.
                out.append(.compare(n))
                if var p = pairing {
                    let more = p.confirmNumber(true, now: now)
                    pairing = p
                    out += perform(more)
                }
            case .paired(let r):
                bonds.removeAll { $0.matches(r.peerAddress) }
                bonds.append(Bond(r))
                out.append(.paired(r))
            case let .failed(reason, byPeer): out.append(.pairingFailed(reason, byPeer: byPeer))
            case .timedOut: out.append(.pairingFailed(.unspecifiedReason, byPeer: false))
            case .displayPasskey, .longTermKeyReady: break
            }
        }
        return out
    }

    private mutating func handleRAS(_ e: RASClient.Event) -> [Output] {
        switch e {
        case .found:
            // Subscribe only when the configuration goes without inline PCT.
            return []
        case .ready(let mode):
            host.rangingDataClientReady()
            return [.rangingData(mode)]
        case .segment(let bytes):
            return translate(host.receiveRangingData(bytes), at: lastTime)
        case .overwritten(let counter): return [.rangingDataLost(rangingCounter: counter, "the reflector overwrote it before it was fetched")]
        case let .refused(counter, code): return [.rangingDataLost(rangingCounter: counter, "the RAS Control Point answered \(code)")]
        case .unavailable(let why):
            rasUnavailable = why
            return needsRAS ? [.rangingDataUnavailable(why)] : []
        }
    }

    /// Lets time pass (`time` s into the run): a refused start is tried again when due.
    mutating func tick(at time: Double) -> [Output] {
        now = time
        var out: [Output] = []
        if var p = pairing {
            let actions = p.tick(now: time)
            pairing = p
            out = perform(actions)
        }
        guard let at = retryAt, time >= at else { return out }
        retryAt = nil
        host.retryProcedureEnable()
        return out
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
        lastTime = time
        now = time
        let wasConnecting = host.setup.connect?.peerAddress
        let hadCapabilities = host.remoteCapabilities != nil
        var out = translate(host.handleEvent(bytes), at: time)
        if !hadCapabilities, let caps = host.remoteCapabilities, !setup.requireIOSCompliance {
            let report = IOSComplianceReport(capabilities: caps, bluetoothVersion: host.remoteVersion ?? 0)
            if !report.isCompliant { out.insert(.notIOSCompliant(report.unmet), at: 0) }
        }
        guard let packet = try? HCIPacket(event: bytes) else { return out }
        link?.handleEvent(packet)
        // LE (Enhanced) Connection Complete with success: the link is up.
        if let code = packet.leSubeventCode,
           [LESubeventCode.connectionComplete, LESubeventCode.enhancedConnectionComplete, LESubeventCode.enhancedConnectionCompleteV2].contains(code),
           packet.parameters.count > 3, packet.parameters[1] == 0, let plan = host.setup.connect, wasConnecting != nil {
            connections += 1
            let handle = (UInt16(packet.parameters[2]) | UInt16(packet.parameters[3]) << 8) & 0x0FFF
            connectedHandle = handle
            link = L2CAPLink(connectionHandle: handle, bufferLength: host.aclBuffers.length, bufferCount: host.aclBuffers.count)
            out.insert(.connected(address: plan.peerAddress, random: plan.peerAddressIsRandom), at: 0)
            if plan.longTermKey.isEmpty { out += secure(peer: PairingAddress(plan.peerAddress, random: plan.peerAddressIsRandom)) }
        }
        // Encryption on: the reflector's Ranging Service is readable now (its characteristics need encryption).
        if packet.eventCode == EncryptionChange.eventCode, let e = try? EncryptionChange.decode(packet: packet), e.connectionHandle == connectedHandle {
            if var p = pairing {
                let actions = p.encryptionChanged(enabled: e.status == .success && e.encryptionEnabled != 0, now: time)
                pairing = p
                out += perform(actions)
            }
            if e.status == .success, e.encryptionEnabled != 0, ras == nil { ras = RASClient() }
        }
        if packet.eventCode == DisconnectionComplete.eventCode, let e = try? DisconnectionComplete.decode(packet: packet), e.connectionHandle == connectedHandle {
            connectedHandle = nil
            link = nil
            ras = nil
            pairing = nil
            needsRAS = false
            rasUnavailable = nil
        }
        return out
    }

    private var lastTime = 0.0

    /// The host's outputs as the session's (distances estimated; a refused start retried).
    private mutating func translate(_ outputs: [InitiatorHost.Output], at time: Double) -> [Output] {
        var out: [Output] = []
        for o in outputs {
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
            case .needsRangingData:
                needsRAS = true
                if let why = rasUnavailable ?? (ras == nil ? "the link is not encrypted, so it cannot be read" : nil) {
                    out.append(.rangingDataUnavailable(why))
                    continue
                }
                ras?.subscribe()
            case .enabled, .disabled: break
            }
        }
        return out
    }

    /// Starts over after a lost link: a fresh host resets the board and looks for the reflector again.
    mutating func reconnect() {
        host = InitiatorHost(setup: setup)
        link = nil
        ras = nil
        pairing = nil
        needsRAS = false
        rasUnavailable = nil
        retryAt = nil
        retriesLeft = Self.startRetries
    }
}
