import AnchorFirmware
import EmulatorMath
import Foundation
import RangingEstimation

/// Runs a `DLTDOADeployment`: every anchor's firmware (`AnchorEngine`) on its own crystal
/// (`AnchorClock`), frames over the air at the speed of light between anchors (line of sight)
/// and to the moving phone (through NLOS zones, with timestamp noise and losses), within the
/// deployment's UWB range. Deterministic for the deployment's seed.
///
/// Blocks are the firmware's own: each cluster without a parent has a time reference (its
/// initiator, hop 0) that starts blocks on its crystal; the initiator of a cluster with a
/// parent is a bridge, a responder in the parent's round, and starts blocks only once the
/// parent's Polls have synchronised it (`BlockSynchronizer`). Responders follow their Polls.
/// Decision: a network whose clusters have no parents has several references, whose blocks
/// drift apart as their crystals do (the Air has no collisions, so rounds still all arrive).
public struct DLTDOAAir: Sendable {
    public let deployment: DLTDOADeployment
    /// σ of the anchors' receive timestamps, metres (ceiling-mounted, line of sight: smaller
    /// than the phone's).
    public var anchorTimestampSigma: Double
    /// Bluetooth LE advertising interval of the discovery advertisement, seconds, and range, metres.
    public var advertisingInterval = 0.1
    public var discoveryRange = 30.0
    /// Radiated power, dBm, and the extra loss of each NLOS zone crossed, dB.
    public var transmitPower = 0.0
    public var nlosLoss = 10.0

    private var engines: [AnchorEngine]
    /// Every anchor's crystal, in the deployment's order.
    public private(set) var clocks: [AnchorClock]
    /// Index of each anchor's time reference (the root of its parent chain).
    private let references: [Int]
    /// Per anchor: its Polls' hop counts and time-base errors (nil for anchors that initiate nothing).
    private var pollTimeBases: [DLTDOAPollTimeBase?]
    private let phoneClock: AnchorClock
    private var rng: SeededGenerator
    /// True time the simulation has reached, seconds.
    public private(set) var time = 0.0
    /// Frames the anchors sent (all networks).
    public private(set) var framesSent = 0

    public init(deployment: DLTDOADeployment, anchorTimestampSigma: Double = 0.03) {
        self.deployment = deployment
        self.anchorTimestampSigma = anchorTimestampSigma
        var rng = SeededGenerator(seed: deployment.seed, stream: 0x7D0A)
        let networks = Self.clusters(deployment)
        engines = deployment.anchors.map { a in AnchorEngine(configuration: Self.configuration(a, of: deployment, in: networks)) }
        let references = deployment.anchors.map { Self.reference(of: $0, in: deployment) }
        self.references = references
        pollTimeBases = deployment.anchors.enumerated().map { i, a in
            a.isInitiator ? DLTDOAPollTimeBase(address: a.address, networkIdentifier: a.networkIdentifier, cluster: a.cluster,
                                               referenceAddress: deployment.anchors[references[i]].address) : nil
        }
        clocks = deployment.anchors.map { a in
            let drawn = rng.next() & UWBTimestamp.mask
            return AnchorClock(offsetTicks: a.clockOffsetTicks ?? drawn, frequencyOffsetPPM: a.clockPPM, driftPPMPerSecond: a.clockDriftPPMPerSecond)
        }
        let drawn = rng.next() & UWBTimestamp.mask
        phoneClock = AnchorClock(offsetTicks: deployment.receiverClockOffsetTicks ?? drawn, frequencyOffsetPPM: deployment.receiverClockPPM)
        self.rng = rng
        // The references start block 0 at true time 0; every other block follows from them.
        for i in engines.indices where engines[i].configuration.timeReference == .reference {
            engines[i].startBlock(index: 0, at: clocks[i].timestamp(atTrueTime: 0))
        }
    }

    /// Each anchor's firmware configuration: its network's session ID, its cluster's round
    /// (index = cluster number), initiator with the cluster's other anchors as responders, and
    /// after them the bridges (initiators of the clusters whose parent this is). A bridge also
    /// responds in its parent cluster's round.
    static func configuration(_ a: DLTDOADeployment.Anchor, of d: DLTDOADeployment,
                              in clusters: [ClusterKey: [DLTDOADeployment.Anchor]]) -> AnchorConfiguration {
        let members = clusters[ClusterKey(network: a.networkIdentifier, cluster: a.cluster)] ?? [a]
        let initiator = members.first(where: \.isInitiator)?.address ?? a.address
        var rounds: [RoundAssignment]
        var role: TimeReferenceRole?
        if a.isInitiator {
            let bridges = d.anchors.filter { $0.networkIdentifier == a.networkIdentifier && $0.isInitiator && $0.cluster != a.cluster && $0.parentCluster == a.cluster }
            rounds = [.initiator(round: a.cluster, responders: members.filter { !$0.isInitiator }.map(\.address) + bridges.map(\.address))]
            role = .reference
            if let p = a.parentCluster, p != a.cluster,
               let parent = clusters[ClusterKey(network: a.networkIdentifier, cluster: p)]?.first(where: \.isInitiator) {
                rounds.append(.responder(round: p, initiator: parent.address))
                role = .bridge(parentRound: p)
            }
        } else {
            rounds = [.responder(round: a.cluster, initiator: initiator)]
        }
        let mm = { (v: Double) in Int32((v * 1000).rounded()) }
        return AnchorConfiguration(sessionID: a.networkIdentifier, shortAddress: a.address, channel: .channel9,
                                   coordinates: .relative(x: mm(a.position.x), y: mm(a.position.y), z: mm(a.position.z)), rounds: rounds,
                                   timeReference: role)
    }

    /// Index of the time reference `a` takes its time from: up the parent chain to a cluster
    /// without a parent (or to where the chain breaks or loops).
    static func reference(of a: DLTDOADeployment.Anchor, in d: DLTDOADeployment) -> Int {
        func initiator(_ cluster: UInt8) -> Int? {
            d.anchors.firstIndex { $0.networkIdentifier == a.networkIdentifier && $0.cluster == cluster && $0.isInitiator }
        }
        guard var current = initiator(a.cluster) else { return d.anchors.firstIndex(of: a) ?? 0 }
        var visited: Set<UInt8> = [a.cluster]
        while let p = d.anchors[current].parentCluster, visited.insert(p).inserted, let next = initiator(p) { current = next }
        return current
    }

    /// The hop counts and time-base errors of every cluster initiator's Polls so far.
    public var timeBases: [DLTDOAPollTimeBase] { pollTimeBases.compactMap { $0 } }

    struct ClusterKey: Hashable {
        var network: UInt32
        var cluster: UInt8
    }

    static func clusters(_ d: DLTDOADeployment) -> [ClusterKey: [DLTDOADeployment.Anchor]] {
        Dictionary(grouping: d.anchors) { ClusterKey(network: $0.networkIdentifier, cluster: $0.cluster) }
    }

    /// Runs the anchors to true time `end` (seconds) and returns what the phone heard, in order.
    public mutating func run(until end: Double) -> [HeardUWBFrame] {
        var heard: [HeardUWBFrame] = []
        while true {
            // The earliest block start or transmission; a block start first at equal times.
            var next: (anchor: Int, time: Double, isBlockStart: Bool)?
            for i in engines.indices {
                if let start = engines[i].nextBlockStart {
                    let t = clocks[i].trueTime(of: start.time, near: time)
                    if next == nil || t < next!.time || (t == next!.time && !next!.isBlockStart) { next = (i, t, true) }
                }
                guard let local = engines[i].nextTransmissionTime else { continue }
                let t = clocks[i].trueTime(of: local, near: time)
                if next == nil || t < next!.time { next = (i, t, false) }
            }
            guard let (s, eventTime, isBlockStart) = next, eventTime <= end else { break }
            if isBlockStart {
                engines[s].startNextBlock()
                continue
            }
            guard let (_, octets) = engines[s].transmitNext() else { break }
            let txTime = eventTime
            time = max(time, txTime)
            framesSent += 1
            if pollTimeBases[s] != nil { recordPoll(octets, from: s, at: txTime) }
            deliverToAnchors(octets, from: s, at: txTime)
            if let frame = deliverToPhone(octets, from: s, at: txTime) { heard.append(frame) }
        }
        time = max(time, end)
        return heard
    }

    /// The discovery advertisements the phone hears between `start` and `end` (every anchor
    /// advertises every `advertisingInterval` from a seeded phase; heard within `discoveryRange`).
    public func advertisements(from start: Double, to end: Double, wifi: Bool) -> [HeardAdvertisement] {
        var out: [HeardAdvertisement] = []
        for (i, a) in deployment.anchors.enumerated() {
            let phase = Double(i % 7) / 7 * advertisingInterval
            var k = ((start - phase) / advertisingInterval).rounded(.up)
            while phase + k * advertisingInterval < end {
                let t = phase + k * advertisingInterval
                k += 1
                guard (deployment.receiverPosition(at: t) - a.position).length <= discoveryRange else { continue }
                let ad = DiscoveryAdvertisement(configuration: engines[i].configuration)
                out.append(HeardAdvertisement(octets: wifi ? ad.wifiVendorElement : ad.bluetoothAdvertisingData, time: t))
            }
        }
        return out.sorted { $0.time < $1.time }
    }

    /// Notes a Poll's hop count and how far its TX timestamp is from the reference's counter.
    private mutating func recordPoll(_ octets: [UInt8], from s: Int, at txTime: Double) {
        guard let frame = try? DTFrame.decode(octets), frame.commonTimeBase, case let .poll(poll) = frame.message else { return }
        let referenceTicks = clocks[references[s]].timestamp(atTrueTime: txTime)
        pollTimeBases[s]?.add(hopCount: poll.hopCount, error: UWBTimestamp.seconds(poll.txTimestamp.ticks(since: referenceTicks)), at: txTime)
    }

    private mutating func deliverToAnchors(_ octets: [UInt8], from s: Int, at txTime: Double) {
        let sender = deployment.anchors[s]
        for r in engines.indices where r != s {
            let d = (deployment.anchors[r].position - sender.position).length
            let arrival = txTime + (d + rng.gaussian() * anchorTimestampSigma) / Ranging.speedOfLight
            guard deployment.inRange(d) else { continue }
            let rx = clocks[r].timestamp(atTrueTime: arrival)
            let cfo = (clocks[s].ratio(atTrueTime: arrival) / clocks[r].ratio(atTrueTime: arrival) - 1) * 1e6
            _ = engines[r].receive(octets, at: rx, carrierFrequencyOffsetPPM: cfo)
        }
    }

    private mutating func deliverToPhone(_ octets: [UInt8], from s: Int, at txTime: Double) -> HeardUWBFrame? {
        let anchor = deployment.anchors[s].position
        let phone = deployment.receiverPosition(at: txTime)
        let lost = rng.uniform() < deployment.lossProbability
        let noise = rng.gaussian() * deployment.timestampSigma
        let d = (phone - anchor).length
        guard !lost, deployment.inRange(d) else { return nil }
        let crossed = deployment.zonesCrossed(anchor, phone)
        let path = d + crossed.map(\.bias).reduce(0, +)
        let arrival = txTime + (path + noise) / Ranging.speedOfLight
        let cfo = phoneClock.ratio(atTrueTime: arrival) / clocks[s].ratio(atTrueTime: arrival) - 1
        return HeardUWBFrame(octets: octets, rawReceiveTime: phoneClock.timestamp(atTrueTime: arrival).ticks,
                             signalStrength: transmitPower - Self.pathLoss(metres: max(d, 0.1), hertz: 7_987_200_000) - nlosLoss * Double(crossed.count),
                             carrierFrequencyOffset: cfo, trueTime: arrival)
    }

    /// Free-space path loss, dB.
    static func pathLoss(metres d: Double, hertz f: Double) -> Double { 20 * log10(4 * Double.pi * d * f / Ranging.speedOfLight) }
}
