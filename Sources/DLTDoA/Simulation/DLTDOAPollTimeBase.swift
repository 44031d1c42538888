/// What the simulation saw of one cluster initiator's Polls: the hop counts they carried and how
/// far their TX timestamps (common time base) were from the time reference's own counter at the
/// true TX time, which is the error the chain of bridges has accumulated by this hop.
public struct DLTDOAPollTimeBase: Sendable, Equatable {
    public var address: UInt16
    public var networkIdentifier: UInt32
    public var cluster: UInt8
    /// The time reference whose counter the Polls should carry.
    public var referenceAddress: UInt16
    /// Every hop count its Polls carried (nil: no hop count field), in the order first seen.
    public var hopCounts: [UInt8?] = []
    public var polls = 0
    /// True time of its first Poll, seconds (when a bridge had synchronised).
    public var firstPollTime: Double?
    /// Largest |TX timestamp − reference counter|, seconds.
    public var maximumError = 0.0
    var sumOfSquaredErrors = 0.0

    public init(address: UInt16, networkIdentifier: UInt32, cluster: UInt8, referenceAddress: UInt16) {
        self.address = address
        self.networkIdentifier = networkIdentifier
        self.cluster = cluster
        self.referenceAddress = referenceAddress
    }

    /// RMS of the TX timestamp's error, seconds.
    public var rmsError: Double { polls == 0 ? 0 : (sumOfSquaredErrors / Double(polls)).squareRoot() }

    /// Counts a Poll sent at true time `time` with `hopCount`, `error` seconds off the reference.
    mutating func add(hopCount: UInt8?, error: Double, at time: Double) {
        if !hopCounts.contains(hopCount) { hopCounts.append(hopCount) }
        polls += 1
        firstPollTime = firstPollTime ?? time
        maximumError = max(maximumError, abs(error))
        sumOfSquaredErrors += error * error
    }
}
