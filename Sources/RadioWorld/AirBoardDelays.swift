import EmulatorMath

/// A board's own delays, as a real board has them and the ideal radios of the Air do not: each
/// antenna's RF chain (matching network, RF switch, traces, the antenna's phase centre) delays
/// every signal through it, and the controller's timestamps of CS_SYNC arrivals come late by
/// its receive chain's processing delay.
///
/// Both are in metres of one-way distance, the unit every estimate is in: an antenna delay Δ
/// lengthens every path through that antenna by Δ in each direction, so a tone's round-trip
/// phase turns by −4π·f·Δ/c (on both hops, as the channel is reciprocal) and a CS_SYNC arrives
/// Δ/c later; the board's antenna path p (initiator antenna i, reflector antenna r) reads
/// Δ_I(i) + Δ_R(r) long, in its tones and in the round trips of CS_SYNCs sent through it.
/// A timing delay τ makes the device stamp every CS_SYNC it receives τ/c late, which lengthens
/// ToA_ToD_Initiator − ToD_ToA_Reflector (the round trip a mode-1/3 step reports, Core 6.0
/// Vol 4 Part E §7.7.65.44) by τ/c whichever side it is on; the RTT distance, (c/2)·RTT, reads
/// (τ_I + τ_R)/2 long, and the tones not at all: that is the pair's RTT offset, which
/// `RoundTripTimeEstimator.offset` takes off.
public struct AirBoardDelays: Sendable, Equatable {
    /// `antennas[k]`: antenna k+1's delay, metres; an antenna past the list has none.
    public var antennas: [Double]
    /// How late the device stamps the CS_SYNCs it receives, in metres of c·time.
    public var timing: Double

    public init(antennas: [Double] = [], timing: Double = 0) {
        self.antennas = antennas
        self.timing = timing
    }

    /// An ideal board: no delays.
    public static let none = AirBoardDelays()

    /// The delay of 1-based antenna `antenna`, metres.
    @inline(__always)
    public func antenna(_ antenna: UInt8) -> Double {
        let k = Int(antenna) - 1
        return k >= 0 && k < antennas.count ? antennas[k] : 0
    }

    /// A board with `count` antennas whose delays are drawn uniformly from `range` (metres),
    /// reproducibly from `seed`, and a timing delay from `timing`: generated boards for tests
    /// and studies of calibration.
    public static func random(antennas count: Int, in range: ClosedRange<Double>, timing: ClosedRange<Double> = 0...0,
                              seed: UInt64) -> AirBoardDelays {
        var rng = SeededGenerator(seed: seed, stream: 9)
        func draw(_ r: ClosedRange<Double>) -> Double { r.lowerBound + (r.upperBound - r.lowerBound) * rng.uniform() }
        let delays = (0..<count).map { _ in draw(range) }
        return AirBoardDelays(antennas: delays, timing: draw(timing))
    }
}
