import EmulatorMath
/// Random DL-TDoA deployments, for tests and studies that must not be tuned on one room: a
/// room (length and width 5–40 m, height 2.5–8 m; a corridor 15–40 m long and 2–4 m wide), an
/// anchor layout, the receive timestamp noise (0.05–0.3 m), losses (0–5 %), crystals (±20 ppm),
/// the phone's walk (waypoints at 1.1–1.3 m, 1 m/s, at least 1 m from the walls), and, when
/// asked, one anchor shadowed by an obstacle that delays its first path everywhere.
///
/// Layouts: `ceiling` (6–8 anchors just under the ceiling: the receiver solves in 2D), `twoHeights`
/// (four ceiling corners and 3–4 anchors at 0.8–1.2 m on the walls), `walls` (6–8 anchors around
/// the walls at random heights), `corridor` (anchors on both sides every 4–6 m, alternately high
/// and low; beyond 8 anchors a second cluster with its own initiator takes the far half).
///
/// Decision: the obstacle's delay is drawn from max(0.5 m, 5σ) to max(1.5 m, 10σ): a delay of a
/// few σ spoils a fix little and no test can single it out in one epoch; the ones that matter
/// are the ones a receiver must catch.
public struct DLTDOADeploymentGenerator: Sendable {
    public enum Layout: String, CaseIterable, Sendable {
        case ceiling
        case twoHeights = "two-heights"
        case walls
        case corridor
    }

    /// A deployment and what the generator drew for it.
    public struct Generated: Sendable {
        public var deployment: DLTDOADeployment
        public var layout: Layout
        /// Length, width and height of the room, metres (its corner at the origin, floor z = 0).
        public var room: Vector3
        /// The anchor behind the obstacle, and the obstacle's delay (metres).
        public var shadowedAnchor: UInt16?
        public var shadowDelay: Double?
    }

    public var noise: ClosedRange<Double>
    /// Seconds of walk.
    public var walkDuration: Double

    public init(noise: ClosedRange<Double> = 0.05...0.3, walkDuration: Double = 10) {
        self.noise = noise
        self.walkDuration = walkDuration
    }

    /// The deployment for `seed` (the layout cycles with the seed unless given).
    public func generate(seed: UInt64, layout: Layout? = nil, shadowed: Bool = false) -> Generated {
        var rng = SeededGenerator(seed: seed, stream: 0xDE9)
        let layout = layout ?? Layout.allCases[Int(seed % UInt64(Layout.allCases.count))]
        func draw(_ r: ClosedRange<Double>) -> Double { r.lowerBound + (r.upperBound - r.lowerBound) * rng.uniform() }
        var room: Vector3
        switch layout {
        case .corridor:
            room = Vector3(draw(15...40), draw(2...4), draw(2.5...4))
        default:
            let a = draw(5...40), b = draw(5...40)
            room = Vector3(max(a, b), min(a, b), draw(2.5...8))
        }
        var positions: [Vector3] = []
        let (l, w, h) = (room.x, room.y, room.z)
        let corners = [(0.0, 0.0), (l, 0.0), (l, w), (0.0, w)]
        func inset(_ c: (Double, Double), _ d: Double) -> (Double, Double) {
            (c.0 == 0 ? d : c.0 - d, c.1 == 0 ? d : c.1 - d)
        }
        switch layout {
        case .ceiling:
            for c in corners {
                let p = inset(c, draw(0.2...0.6))
                positions.append(Vector3(p.0, p.1, h - draw(0.05...0.4)))
            }
            for k in 0..<(2 + Int(rng.next() % 3)) {
                let x = l * (Double(k / 2 + 1) / Double(k / 2 + 2)) + draw(-0.5...0.5)
                positions.append(Vector3(min(max(x, 0.3), l - 0.3), k % 2 == 0 ? 0.3 : w - 0.3, h - draw(0.05...0.4)))
            }
        case .twoHeights:
            for c in corners {
                let p = inset(c, draw(0.2...0.6))
                positions.append(Vector3(p.0, p.1, h - draw(0.1...0.3)))
            }
            let walls = [(l / 2, 0.2), (l - 0.2, w / 2), (l / 2, w - 0.2), (0.2, w / 2)]
            let low = 3 + Int(rng.next() % 2)
            let first = Int(rng.next() % 4)
            for k in 0..<low {
                let m = walls[(first + k) % 4]
                let along = draw(-0.25...0.25)
                let x = m.0 == l / 2 ? m.0 + along * l : m.0, y = m.1 == w / 2 ? m.1 + along * w : m.1
                positions.append(Vector3(x, y, draw(0.8...1.2)))
            }
        case .walls:
            let n = 6 + Int(rng.next() % 3)
            let perimeter = 2 * (l + w)
            let offset = draw(0...1)
            for k in 0..<n {
                var s = (Double(k) + offset + draw(-0.2...0.2)) / Double(n) * perimeter
                s = s.truncatingRemainder(dividingBy: perimeter)
                let p: (Double, Double) = s < l ? (s, 0.1) : s < l + w ? (l - 0.1, s - l) : s < 2 * l + w ? (l - (s - l - w), w - 0.1) : (0.1, w - (s - 2 * l - w))
                let z = k % 2 == 0 ? draw(max(1.5, h - 1.2)...(h - 0.2)) : draw(0.5...1.2)
                positions.append(Vector3(min(max(p.0, 0.1), l - 0.1), min(max(p.1, 0.1), w - 0.1), z))
            }
        case .corridor:
            let spacing = draw(4...6)
            var x = draw(0.3...1.5)
            var k = 0
            while x < l - 0.3 {
                positions.append(Vector3(x, k % 2 == 0 ? 0.1 : w - 0.1, k % 4 < 2 ? h - 0.2 : draw(0.8...1.2)))
                x += spacing / 2
                k += 1
            }
            while positions.count < 5 { positions.append(Vector3(l - 0.3, positions.count % 2 == 0 ? 0.1 : w - 0.1, positions.count % 2 == 0 ? h - 0.2 : 1.0)) }
        }
        // Clusters of at most 8 (a Poll lists at most 8 responders): split along x, each cluster's
        // first anchor its initiator.
        let clusterCount = (positions.count + 7) / 8
        let ordered = positions.sorted { $0.x < $1.x }
        var anchors: [DLTDOADeployment.Anchor] = []
        for (i, p) in ordered.enumerated() {
            let cluster = i * clusterCount / ordered.count
            let isInitiator = i == (cluster * ordered.count + clusterCount - 1) / clusterCount
            anchors.append(DLTDOADeployment.Anchor(address: UInt16(0x0C01 + i), position: p, networkIdentifier: 0x2468, cluster: UInt8(cluster),
                                                   isInitiator: isInitiator, clockPPM: draw(-20...20)))
        }
        let sigma = draw(noise)
        var deployment = DLTDOADeployment(anchors: anchors, path: walk(room: room, layout: layout, rng: &rng), receiverClockPPM: draw(-20...20),
                                          timestampSigma: sigma, lossProbability: draw(0...0.05), seed: seed)
        var shadowedAnchor: UInt16?
        var shadowDelay: Double?
        if shadowed {
            let a = anchors[Int(rng.next() % UInt64(anchors.count))]
            let delay = draw(max(0.5, 5 * sigma)...max(1.5, 10 * sigma))
            let half = Vector3(0.3, 0.3, 0.3)
            deployment.zones = [DLTDOADeployment.NLOSZone(minimum: a.position - half, maximum: a.position + half, bias: delay)]
            shadowedAnchor = a.address
            shadowDelay = delay
        }
        return Generated(deployment: deployment, layout: layout, room: room, shadowedAnchor: shadowedAnchor, shadowDelay: shadowDelay)
    }

    /// Waypoints 1 m or more from the walls (0.5 m across a corridor) at 1.1–1.3 m, walked at
    /// 1 m/s for `walkDuration` seconds.
    private func walk(room: Vector3, layout: Layout, rng: inout SeededGenerator) -> [DLTDOADeployment.PathPoint] {
        let mx = 1.0, my = layout == .corridor ? min(0.5, room.y / 2 - 0.1) : 1.0
        func point() -> Vector3 {
            Vector3(mx + (room.x - 2 * mx) * rng.uniform(), my + (room.y - 2 * my) * rng.uniform(), 1.1 + 0.2 * rng.uniform())
        }
        var path = [DLTDOADeployment.PathPoint(time: 0, position: point())]
        while path.last!.time < walkDuration {
            let p = point()
            let last = path.last!
            path.append(DLTDOADeployment.PathPoint(time: last.time + max((p - last.position).length, 0.1), position: p))
        }
        return path
    }
}
