/// An anchor's map from its local counter to the network's common time base (the reference
/// anchor's counter): common = common₀ + (local − local₀)·rate, rate in common ticks per local
/// tick. Valid while local is within 2³⁹ ticks (8.6 s) of local₀, as every 40-bit difference.
public struct CommonTimeBase: Equatable, Sendable {
    /// A local reading and the common time it corresponds to.
    public var local: UWBTimestamp
    public var common: UWBTimestamp
    /// Common ticks per local tick.
    public var commonTicksPerLocalTick: Double

    /// The identity: an anchor whose own counter is the common time base.
    public static func identity(at local: UWBTimestamp) -> CommonTimeBase {
        CommonTimeBase(local: local, common: local, commonTicksPerLocalTick: 1)
    }

    /// The common time of local reading `t`.
    public func common(at t: UWBTimestamp) -> UWBTimestamp {
        common.advanced(by: Int64((Double(t.ticks(since: local)) * commonTicksPerLocalTick).rounded()))
    }

    /// The local reading at common time `t`.
    public func local(at t: UWBTimestamp) -> UWBTimestamp {
        local.advanced(by: Int64((Double(t.ticks(since: common)) / commonTicksPerLocalTick).rounded()))
    }
}
