/// Where the devices and their antennas are: the initiator at the origin, the reflector on the
/// +x axis at `distance` (or where `trajectory` puts it at a given time), each device's antennas
/// at offsets from its reference point. The path length of an antenna pair, and so its
/// line-of-sight delay, follows from these; a reflection adds its excess length on top.
public struct AirGeometry: Sendable, Equatable {
    /// Separation in metres when there is no trajectory.
    public var distance: Double
    /// Motion over time; when set it replaces `distance`.
    public var trajectory: AirTrajectory?
    /// Offsets of the initiator's antennas 1...n (1 to 4 of them), metres.
    public var initiatorAntennas: [AirPoint]
    /// Offsets of the reflector's antennas 1...n (1 to 4 of them), metres.
    public var reflectorAntennas: [AirPoint]

    /// Four antennas in a row along y, 4 cm apart (about λ/3 at 2.44 GHz): distinct paths whose
    /// lengths differ by millimetres at metre distances, as on a small board.
    public static let defaultAntennas: [AirPoint] = (0..<4).map { AirPoint(y: 0.04 * Double($0)) }

    public init(distance: Double = 2.0, trajectory: AirTrajectory? = nil,
                initiatorAntennas: [AirPoint] = AirGeometry.defaultAntennas,
                reflectorAntennas: [AirPoint] = AirGeometry.defaultAntennas) {
        precondition(!initiatorAntennas.isEmpty && initiatorAntennas.count <= 4, "1 to 4 initiator antennas")
        precondition(!reflectorAntennas.isEmpty && reflectorAntennas.count <= 4, "1 to 4 reflector antennas")
        self.distance = distance
        self.trajectory = trajectory
        self.initiatorAntennas = initiatorAntennas
        self.reflectorAntennas = reflectorAntennas
    }

    /// The device separation at `time` (µs).
    @inline(__always)
    public func distance(at time: UInt64) -> Double { trajectory?.distance(at: time) ?? distance }

    /// Radial velocity at `time`, m/s.
    @inline(__always)
    public func velocity(at time: UInt64) -> Double { trajectory?.velocity(at: time) ?? 0 }

    /// Straight-line length in metres from initiator antenna `initiatorAntenna` to reflector
    /// antenna `reflectorAntenna` (1-based; a number past the device's antennas means its last
    /// antenna) at `time`.
    public func pathLength(initiatorAntenna: UInt8, reflectorAntenna: UInt8, at time: UInt64) -> Double {
        let i = initiatorAntennas[AirGeometry.slot(initiatorAntenna, initiatorAntennas.count)]
        let r = reflectorAntennas[AirGeometry.slot(reflectorAntenna, reflectorAntennas.count)]
        let d = distance(at: time)
        return i.distance(to: AirPoint(x: d + r.x, y: r.y, z: r.z))
    }

    /// 0-based index of a 1-based antenna number, clamped to the antennas there are.
    @inline(__always)
    static func slot(_ antenna: UInt8, _ count: Int) -> Int { min(max(Int(antenna), 1), count) - 1 }
}
