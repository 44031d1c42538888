@testable import BLEHost
import ReflectorFirmware

/// The whole accessory (`AccessoryHost`: set up, connected to a bonded phone, encrypted) with its
/// controller played here, and a phone's ATT client on the other end, on simulated time: every
/// ATT PDU takes `pduTime` of link time (one per connection event), so timers see the pacing a
/// link gives. The controller's buffers are freed at once (Number Of Completed Packets).
struct RASBench {
    static let handle = AccessoryHostTests.handle
    var host: AccessoryHost
    var now = 0.0
    let pduTime: Double
    /// Server PDUs as the phone got them: when, and the octets.
    private(set) var received: [(time: Double, pdu: [UInt8])] = []
    /// Client PDUs as the accessory got them.
    private(set) var sent: [[UInt8]] = []
    private var reassembler = L2CAPReassembler(maximumPayload: 1024)
    private var inFlight: [(arrival: Double, toServer: Bool, pdu: [UInt8])] = []
    private var linkFree = 0.0
    private var scheduled: [(time: Double, procedure: ProcedureResults)] = []

    init(realTime: Bool, pduTime: Double = 0.0075) {
        self.pduTime = pduTime
        var c = AccessoryHost.Configuration(identity: .init(name: "tag", manufacturer: "m", model: "x", firmwareRevision: "1"),
                                            address: 0xC300_0000_0001, irk: Array(0..<16))
        c.realTimeRAS = realTime
        host = AccessoryHost(configuration: c, bonds: [AccessoryHostTests.bond], random: .repeating(0x11))
        _ = AccessoryHostTests.setUp(&host)
        _ = AccessoryHostTests.connect(&host, peer: AccessoryHostTests.bond.peer)
        answerCommands()
        _ = host.handleEvent(EncryptionChange(connectionHandle: Self.handle, enabled: true).packet, now: 0)
    }

    private mutating func answerCommands() {
        while let c = host.nextCommand() {
            _ = host.handleEvent(CommandCompleteEvent(opcode: c.opcode ?? 0, returnParameters: [0, UInt8(Self.handle & 0xFF), UInt8(Self.handle >> 8)]).packet, now: now)
        }
    }

    /// Runs the link: PDUs both ways, each taking `pduTime` of a link shared by both
    /// directions; the procedures scheduled; and, with `timers`, the client's alarms, up to
    /// `until` (without `timers`: until no PDU is on its way).
    mutating func run<C: BenchClient>(_ client: inout C, until: Double = .infinity, timers: Bool = false) {
        collect(&client)
        for _ in 0..<1_000_000 {
            var next = [inFlight.first?.arrival, scheduled.first?.time].compactMap { $0 }.min()
            if timers, let d = client.nextDeadline { next = min(next ?? d, d) }
            guard let t = next, t <= until else { break }
            now = max(now, t)
            client.tick(now: now)
            _ = host.tick(now: now)
            if let d = inFlight.first, d.arrival <= now {
                inFlight.removeFirst()
                if d.toServer {
                    sent.append(d.pdu)
                    _ = host.handleACL(AccessoryHostTests.acl(L2CAPFrame.attributeProtocol, d.pdu), now: now)
                } else {
                    received.append((now, d.pdu))
                    client.receive(d.pdu, now: now)
                }
            } else if let s = scheduled.first, s.time <= now {
                scheduled.removeFirst()
                procedure(s.procedure)
            }
            collect(&client)
        }
        if until.isFinite {
            now = max(now, until)
            client.tick(now: now)
            _ = host.tick(now: now)
            collect(&client)  // what this sends arrives after `until`: left on the link
        }
    }

    /// Whatever both sides have to send now goes on the link.
    private mutating func collect<C: BenchClient>(_ client: inout C) {
        for p in client.take() { put(p, toServer: true) }
        answerCommands()
        let packets = host.nextACL()
        if !packets.isEmpty {
            _ = host.handleEvent(NumberOfCompletedPackets(connectionHandle: Self.handle, completedPackets: UInt16(packets.count)).packet, now: now)
        }
        for p in packets {
            for case .frame(let f) in reassembler.add(boundary: p.aclPacketBoundary!, p.parameters) where f.channel == L2CAPFrame.attributeProtocol {
                put(f.payload, toServer: false)
            }
        }
    }

    private mutating func put(_ pdu: [UInt8], toServer: Bool) {
        linkFree = max(linkFree, now) + pduTime
        inFlight.append((linkFree, toServer, pdu))
    }

    /// Every PDU delivered (no time passes but the link's).
    mutating func pump<C: BenchClient>(_ client: inout C) { run(&client) }

    /// Time passes to `t` (never backwards): deliveries, procedures and timers on the way.
    mutating func advance<C: BenchClient>(_ client: inout C, to t: Double) { run(&client, until: t, timers: true) }

    /// The procedure's events reach the accessory at `t` (while the link runs).
    mutating func schedule(_ p: ProcedureResults, at t: Double) {
        scheduled.append((t, p))
        scheduled.sort { $0.time < $1.time }
    }

    /// One procedure's LE CS Subevent Result (and Continue) events into the accessory, as its
    /// controller reports them.
    @discardableResult
    mutating func procedure(_ p: ProcedureResults) -> [AccessoryHost.Output] {
        var out: [AccessoryHost.Output] = []
        for s in p.subevents { for e in s.splitIntoEvents() { out += host.handleEvent(e.packet, now: now) } }
        return out
    }

    mutating func clearLog() {
        received = []
        sent = []
    }

    /// A reflector's procedure: `subevents` subevents of `steps` mode-2 steps each (one antenna
    /// path; PCTs that tell steps and procedures apart).
    static func procedure(counter: UInt16, subevents: Int = 1, steps: Int) -> ProcedureResults {
        let results = (0..<subevents).map { k in
            let list = (0..<steps).map { j in
                var t = ToneStepData(antennaPermutationIndex: 0, antennaPaths: 1)
                t[0] = ToneMeasurement(pct: PhaseCorrectionTerm(i: Int(counter % 1000) - 500, q: j * 7 - 400 + k), quality: ToneQualityIndicator())
                t[1] = ToneMeasurement(pct: PhaseCorrectionTerm(i: j, q: -j), quality: ToneQualityIndicator(quality: .high, extensionSlot: .toneExpected))
                return SubeventStep(channel: UInt8(2 + (j + k) % 70), data: .mode2(t))
            }
            return LECSSubeventResult(connectionHandle: handle, configID: 0, startACLConnectionEventCounter: UInt16(truncatingIfNeeded: Int(counter) * 4 + k),
                                      procedureCounter: counter, frequencyCompensation: 0xC000, referencePowerLevel: -20,
                                      procedureDoneStatus: k == subevents - 1 ? .complete : .partial, subeventDoneStatus: .complete,
                                      abortReasons: .none, numAntennaPaths: 1, steps: list)
        }
        return ProcedureResults(procedureCounter: counter, configID: 0, antennaPaths: 1, subevents: results)
    }
}

/// A phone-side ATT client the bench drives.
protocol BenchClient {
    /// The PDUs to send now (octets).
    mutating func take() -> [[UInt8]]
    mutating func receive(_ pdu: [UInt8], now: Double)
    mutating func tick(now: Double)
    /// When the client's next timer runs out, if one runs.
    var nextDeadline: Double? { get }
}

extension AndroidRASClient: BenchClient {
    var nextDeadline: Double? { pendingDeadlines.first }
}
