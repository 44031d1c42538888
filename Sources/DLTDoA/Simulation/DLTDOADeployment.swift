import EmulatorMath
/// A DL-TDoA installation and what happens in it, for the simulation: the anchors (where, in
/// which cluster and network, with which crystal), what spoils the radio (walls and NLOS zones
/// that delay the first path, lost messages, timestamp noise), and the phone's path.
public struct DLTDOADeployment: Sendable, Equatable {
    public struct Anchor: Sendable, Equatable {
        public var address: UInt16
        /// Metres, the deployment's frame (z up).
        public var position: Vector3
        /// The network identifier (FiRa session ID) this anchor belongs to.
        public var networkIdentifier: UInt32
        /// Cluster number; the cluster's rounds carry this index.
        public var cluster: UInt8
        /// The cluster's initiator (one per cluster); the others respond.
        public var isInitiator: Bool
        /// Crystal frequency offset, ppm, and its drift, ppm/s.
        public var clockPPM: Double
        public var clockDriftPPMPerSecond: Double
        /// The counter's reading at time 0 (nil: drawn from the seed).
        public var clockOffsetTicks: UInt64?
        /// For a cluster's initiator: the cluster whose round it also responds in and whose Polls
        /// give it the block start and common time base (a bridging anchor, FiRa's hop count
        /// + 1); nil: it is a time reference (hop 0) and starts blocks on its own crystal.
        public var parentCluster: UInt8?

        public init(address: UInt16, position: Vector3, networkIdentifier: UInt32, cluster: UInt8, isInitiator: Bool,
                    clockPPM: Double = 0, clockDriftPPMPerSecond: Double = 0, clockOffsetTicks: UInt64? = nil, parentCluster: UInt8? = nil) {
            self.address = address
            self.position = position
            self.networkIdentifier = networkIdentifier
            self.cluster = cluster
            self.isInitiator = isInitiator
            self.clockPPM = clockPPM
            self.clockDriftPPMPerSecond = clockDriftPPMPerSecond
            self.clockOffsetTicks = clockOffsetTicks
            self.parentCluster = parentCluster
        }
    }

    /// A box the first path cannot cross directly: a path through it arrives `bias` metres late
    /// (a diffracted or through-material path) and weaker.
    public struct NLOSZone: Sendable, Equatable {
        public var minimum: Vector3
        public var maximum: Vector3
        public var bias: Double
        public init(minimum: Vector3, maximum: Vector3, bias: Double) {
            self.minimum = minimum
            self.maximum = maximum
            self.bias = bias
        }

        /// Whether the segment a–b passes through the box (slab test).
        public func blocks(_ a: Vector3, _ b: Vector3) -> Bool {
            var t0 = 0.0, t1 = 1.0
            for (p, q, lo, hi) in [(a.x, b.x, minimum.x, maximum.x), (a.y, b.y, minimum.y, maximum.y), (a.z, b.z, minimum.z, maximum.z)] {
                let d = q - p
                if abs(d) < 1e-12 {
                    if p < lo || p > hi { return false }
                    continue
                }
                var u = (lo - p) / d, v = (hi - p) / d
                if u > v { swap(&u, &v) }
                t0 = max(t0, u)
                t1 = min(t1, v)
                if t0 > t1 { return false }
            }
            return true
        }
    }

    /// The phone's path: positions at times (seconds), linear in between, held at the ends.
    public struct PathPoint: Sendable, Equatable {
        public var time: Double
        public var position: Vector3
        public init(time: Double, position: Vector3) {
            self.time = time
            self.position = position
        }
    }

    public var anchors: [Anchor]
    public var zones: [NLOSZone]
    public var path: [PathPoint]
    /// The phone's crystal offset, ppm, and its counter at time 0 (nil: from the seed).
    public var receiverClockPPM: Double
    public var receiverClockOffsetTicks: UInt64?
    /// σ of each receive timestamp (phone and anchors), metres of flight.
    public var timestampSigma: Double
    /// Probability that the phone misses a message.
    public var lossProbability: Double
    /// Block length, seconds (200 ms as in NXP's demo: 5 position epochs per second).
    public var blockDuration: Double
    public var channel: UInt8
    public var seed: UInt64
    /// How far a UWB frame carries, metres, between anchors and to the phone (nil: everywhere,
    /// one room). With it the phone hears only the clusters near it, and a bridge must be within
    /// it of its parent cluster's initiator.
    public var uwbRange: Double?

    public init(anchors: [Anchor], zones: [NLOSZone] = [], path: [PathPoint], receiverClockPPM: Double = 0, timestampSigma: Double = 0.1,
                lossProbability: Double = 0, blockDuration: Double = 0.2, channel: UInt8 = 9, seed: UInt64 = 1, uwbRange: Double? = nil) {
        self.anchors = anchors
        self.zones = zones
        self.path = path
        self.receiverClockPPM = receiverClockPPM
        self.timestampSigma = timestampSigma
        self.lossProbability = lossProbability
        self.blockDuration = blockDuration
        self.channel = channel
        self.seed = seed
        self.uwbRange = uwbRange
    }

    /// Whether a frame carries over `distance` metres.
    public func inRange(_ distance: Double) -> Bool { uwbRange.map { distance <= $0 } ?? true }

    /// The phone's true position at `time`.
    public func receiverPosition(at time: Double) -> Vector3 {
        guard let first = path.first else { return .zero }
        if time <= first.time { return first.position }
        for (a, b) in zip(path, path.dropFirst()) where time < b.time {
            let f = (time - a.time) / max(b.time - a.time, 1e-12)
            return a.position + (b.position - a.position) * f
        }
        return path.last!.position
    }

    /// The NLOS zones the straight path between two points crosses.
    public func zonesCrossed(_ a: Vector3, _ b: Vector3) -> [NLOSZone] { zones.filter { $0.blocks(a, b) } }

    /// When the path ends, seconds.
    public var duration: Double { path.last?.time ?? 0 }

    /// The default room: 10 × 8 m, 3 m high, one network (0x1234) in one cluster: the initiator
    /// at a ceiling corner and seven responders at the other ceiling corners and at 0.5 m near
    /// the floor corners (height is then observable), crystals within ±20 ppm; the phone walks a
    /// loop at 1.2 m at walking speed for 20 s.
    public static func defaultRoom(seed: UInt64 = 1) -> DLTDOADeployment {
        let corners = [(0.0, 0.0), (10.0, 0.0), (10.0, 8.0), (0.0, 8.0)]
        var anchors: [Anchor] = []
        let ppm = [12.0, -18.5, 7.25, -3.5, 19.0, -11.0, 4.5, -15.75]
        for (i, c) in corners.enumerated() {
            anchors.append(Anchor(address: UInt16(0x0A01 + i), position: Vector3(c.0, c.1, 2.8), networkIdentifier: 0x1234, cluster: 0,
                                  isInitiator: i == 0, clockPPM: ppm[i]))
        }
        for (i, c) in corners.enumerated() {
            anchors.append(Anchor(address: UInt16(0x0A05 + i), position: Vector3(c.0 == 0 ? 0.3 : 9.7, c.1 == 0 ? 0.3 : 7.7, 0.5),
                                  networkIdentifier: 0x1234, cluster: 0, isInitiator: false, clockPPM: ppm[4 + i]))
        }
        let loop = [Vector3(2, 2, 1.2), Vector3(8, 2, 1.2), Vector3(8, 6, 1.2), Vector3(2, 6, 1.2), Vector3(2, 2, 1.2)]
        var path: [PathPoint] = []
        var t = 0.0
        for (i, p) in loop.enumerated() {
            if i > 0 { t += (p - loop[i - 1]).length / 1.0 }
            path.append(PathPoint(time: t, position: p))
        }
        return DLTDOADeployment(anchors: anchors, path: path, receiverClockPPM: -6.5, seed: seed)
    }
}
