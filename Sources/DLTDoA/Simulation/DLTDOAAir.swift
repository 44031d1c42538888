import AnchorFirmware
import EmulatorMath
import Foundation
import RangingEstimation

/// Runs a `DLTDOADeployment`: every anchor's firmware (`AnchorEngine`) on its own crystal
/// (`AnchorClock`), frames over the air at the speed of light between anchors (line of sight)
/// and to the moving phone (through NLOS zones, with timestamp noise and losses), blocks
/// started on each anchor's own clock. Deterministic for the deployment's seed.
///
/// Decision: anchors are synchronized to a common block start (as FiRa anchors are by the
/// initiator's Poll and hop count); within a block every time is the anchor's own counter.
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
    private var clocks: [AnchorClock]
    private let phoneClock: AnchorClock
    private var rng: SeededGenerator
    private var blockIndex: UInt16 = 0
    private var nextBlockStart = 0.0
    /// True time the simulation has reached, seconds.
    public private(set) var time = 0.0
    /// Frames the anchors sent (all networks).
    public private(set) var framesSent = 0

    public init(deployment: DLTDOADeployment, anchorTimestampSigma: Double = 0.03) {
        self.deployment = deployment
        self.anchorTimestampSigma = anchorTimestampSigma
        var rng = SeededGenerator(seed: deployment.seed, stream: 0x7D0A)
        let networks = Self.clusters(deployment)
        engines = deployment.anchors.map { a in AnchorEngine(configuration: Self.configuration(a, in: networks)) }
        clocks = deployment.anchors.map { a in
            let drawn = rng.next() & UWBTimestamp.mask
            return AnchorClock(offsetTicks: a.clockOffsetTicks ?? drawn, frequencyOffsetPPM: a.clockPPM, driftPPMPerSecond: a.clockDriftPPMPerSecond)
        }
        let drawn = rng.next() & UWBTimestamp.mask
        phoneClock = AnchorClock(offsetTicks: deployment.receiverClockOffsetTicks ?? drawn, frequencyOffsetPPM: deployment.receiverClockPPM)
        self.rng = rng
    }

    /// Each anchor's firmware configuration: its network's session ID, its cluster's round
    /// (index = cluster number), initiator with the cluster's other anchors as responders.
    static func configuration(_ a: DLTDOADeployment.Anchor, in clusters: [ClusterKey: [DLTDOADeployment.Anchor]]) -> AnchorConfiguration {
        let members = clusters[ClusterKey(network: a.networkIdentifier, cluster: a.cluster)] ?? [a]
        let initiator = members.first(where: \.isInitiator)?.address ?? a.address
        let round: RoundAssignment = a.isInitiator
            ? .initiator(round: a.cluster, responders: members.filter { !$0.isInitiator }.map(\.address))
            : .responder(round: a.cluster, initiator: initiator)
        let mm = { (v: Double) in Int32((v * 1000).rounded()) }
        return AnchorConfiguration(sessionID: a.networkIdentifier, shortAddress: a.address, channel: .channel9,
                                   coordinates: .relative(x: mm(a.position.x), y: mm(a.position.y), z: mm(a.position.z)), rounds: [round])
    }

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
            var next: (anchor: Int, time: Double)?
            for i in engines.indices {
                guard let local = engines[i].nextTransmissionTime else { continue }
                let t = clocks[i].trueTime(of: local, near: max(time, nextBlockStart - deployment.blockDuration))
                if next == nil || t < next!.time { next = (i, t) }
            }
            if nextBlockStart <= min(next?.time ?? .infinity, end) {
                startBlock()
                continue
            }
            guard let (s, txTime) = next, txTime <= end, let (_, octets) = engines[s].transmitNext() else { break }
            time = max(time, txTime)
            framesSent += 1
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

    private mutating func startBlock() {
        for i in engines.indices {
            engines[i].startBlock(index: blockIndex, at: clocks[i].timestamp(atTrueTime: nextBlockStart))
        }
        blockIndex &+= 1
        nextBlockStart += deployment.blockDuration
    }

    private mutating func deliverToAnchors(_ octets: [UInt8], from s: Int, at txTime: Double) {
        let sender = deployment.anchors[s]
        for r in engines.indices where r != s {
            let d = (deployment.anchors[r].position - sender.position).length
            let arrival = txTime + (d + rng.gaussian() * anchorTimestampSigma) / Ranging.speedOfLight
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
        guard !lost else { return nil }
        let d = (phone - anchor).length
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
