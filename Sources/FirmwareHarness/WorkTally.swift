/// Count, sum and largest of one kind of measured work (in the meter's units).
public struct WorkTally: Sendable, Equatable {
    public private(set) var count: UInt32 = 0
    public private(set) var total: UInt64 = 0
    public private(set) var largest: UInt32 = 0

    public init() {}

    @inline(__always)
    public mutating func add(_ units: UInt32) {
        count &+= 1
        total &+= UInt64(units)
        if units > largest { largest = units }
    }

    /// The mean, rounded down; 0 when nothing was counted.
    public var mean: UInt32 { count == 0 ? 0 : UInt32(truncatingIfNeeded: total / UInt64(count)) }
}
