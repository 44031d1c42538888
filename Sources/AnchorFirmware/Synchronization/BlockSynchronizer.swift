/// How a DT-Anchor keeps its ranging blocks in step with the network's time reference across
/// clusters (FiRa MAC 2.0 DL-TDoA hop count and common time base; Qorvo's `fira_time_sync`
/// converts local to common time from the Poll's TX timestamp, the local RX time and the ToF).
/// Pure: it is fed its parent round's Polls and asked when the next block starts.
///
/// The reference's counter is the common time base (hop count 0); it starts a block every
/// block length of its own crystal. A bridge maps local to common time from its parent's Polls:
/// a Poll that left at common time T reached this anchor ToF later at local rx, so
/// common(rx) = T + ToF; the rate is the common ticks between two parent Polls over the local
/// ticks between their arrivals. Its blocks start where the parent's do, at
/// T − parentRound·round − TX antenna delay in common time, one block length apart. Errors
/// chain: each hop adds its own RX timestamp noise and rate error to its parent's.
///
/// Decisions (FiRa's text is not public; Qorvo's code shows the hop-count constants only):
/// - synchronised from the second parent Poll on: the rate needs an interval (the CFO measures
///   the parent's crystal, which past hop 1 is not the common base);
/// - hop count = the parent Poll's + 1, 0xFF while unsynchronised; a parent Poll without a hop
///   count, or with 0xFF or 0xFE, does not synchronise;
/// - the parent's delayed-TX rounding (< 512 ticks, 8 ns) stays in the derived block start: it
///   only places rounds in 1 ms slots, while the common time base is exact to the timestamps;
/// - no parent Poll for `holdoverBlocks` blocks: unsynchronised again, and no more blocks
///   initiated, rather than transmit on a time base that drifts away.
public struct BlockSynchronizer: Equatable, Sendable {
    public static let referenceHopCount: UInt8 = 0
    public static let invalidHopCount: UInt8 = 0xFF
    /// Blocks a bridge keeps initiating since it last heard its parent.
    public static let holdoverBlocks: Int64 = 5

    /// The common time a parent Poll reached this anchor, and the local RX time.
    struct Arrival: Equatable, Sendable {
        var common: UWBTimestamp
        var local: UWBTimestamp
    }

    public let role: TimeReferenceRole
    /// 0 for the reference, parent's + 1 for a synchronised bridge, 0xFF otherwise.
    public private(set) var hopCount: UInt8
    /// Local → common time; nil while unsynchronised.
    public private(set) var timeBase: CommonTimeBase?
    /// Index of the next block this anchor starts (nil: none scheduled).
    public private(set) var nextBlockIndex: UInt16?
    /// Its start, common time.
    public private(set) var nextBlockCommonStart = UWBTimestamp(ticks: 0)
    var lastParentPoll: Arrival?
    let roundTicks: Int64
    let blockTicks: Int64
    let txAntennaDelayTicks: Int64
    /// The first round this anchor initiates: after its parent's, a block can start in the
    /// parent's current block; before, in the next.
    let firstInitiatedRound: UInt8

    public init(role: TimeReferenceRole, configuration: AnchorConfiguration) {
        self.role = role
        hopCount = role == .reference ? Self.referenceHopCount : Self.invalidHopCount
        roundTicks = configuration.roundTicks
        blockTicks = configuration.blockTicks
        txAntennaDelayTicks = Int64(configuration.txAntennaDelayTicks)
        var first = UInt8.max
        for case let .initiator(round, _, _) in configuration.rounds { first = min(first, round) }
        firstInitiatedRound = first
    }

    /// Local time and index of the next block, when this anchor is synchronised and has one.
    public var nextBlockStart: (index: UInt16, time: UWBTimestamp)? {
        guard let index = nextBlockIndex, let timeBase else { return nil }
        return (index, timeBase.local(at: nextBlockCommonStart))
    }

    /// Block `index` started at local `start`: the next one is a block length later (common
    /// time; for the reference, its own crystal).
    mutating func blockStarted(index: UInt16, at start: UWBTimestamp) {
        switch role {
        case .reference:
            timeBase = .identity(at: start)
            nextBlockCommonStart = start.advanced(by: blockTicks)
        case .bridge:
            guard let timeBase else { return }
            let common = index == nextBlockIndex ? nextBlockCommonStart : timeBase.common(at: start)
            nextBlockCommonStart = common.advanced(by: blockTicks)
        }
        nextBlockIndex = index &+ 1
    }

    /// Whether a bridge may start a block at local `start`: it heard its parent within the
    /// holdover; if not, it is unsynchronised from now on.
    mutating func mayStartBlock(at start: UWBTimestamp) -> Bool {
        guard case .bridge = role else { return true }
        if let last = lastParentPoll, start.ticks(since: last.local) <= Self.holdoverBlocks * blockTicks { return true }
        hopCount = Self.invalidHopCount
        timeBase = nil
        nextBlockIndex = nil
        lastParentPoll = nil
        return false
    }

    /// A Poll of round `round` with TX timestamp `tx` in the common time base, hop count
    /// `parentHop`, of block `blockIndex`, received at local `rx` after `timeOfFlightTicks`.
    /// Ignored unless this anchor is a bridge and `round` its parent round.
    public mutating func receivedPoll(round: UInt8, tx: UWBTimestamp, hopCount parentHop: UInt8?, blockIndex: UInt16,
                                      at rx: UWBTimestamp, timeOfFlightTicks: Int64) {
        guard case let .bridge(parentRound) = role, parentRound == round else { return }
        guard let parentHop, parentHop < Self.invalidHopCount - 1 else { return }
        let arrival = Arrival(common: tx.advanced(by: timeOfFlightTicks), local: rx)
        defer { lastParentPoll = arrival }
        guard let last = lastParentPoll else { return }
        let local = rx.ticks(since: last.local), common = arrival.common.ticks(since: last.common)
        guard local > 0, local <= Self.holdoverBlocks * blockTicks, common > 0 else { return }
        let rate = Double(common) / Double(local)
        guard abs(rate - 1) < 1e-4 else { return }  // beyond ±100 ppm: not two Polls of one parent
        timeBase = CommonTimeBase(local: rx, common: arrival.common, commonTicksPerLocalTick: rate)
        hopCount = parentHop + 1
        let parentBlockStart = tx.advanced(by: -(Int64(parentRound) * roundTicks + txAntennaDelayTicks))
        var ahead: UInt16 = firstInitiatedRound > parentRound ? 0 : 1
        if let next = nextBlockIndex, case let d = Int16(bitPattern: next &- blockIndex), d >= 0, d <= 2 { ahead = UInt16(d) }
        nextBlockIndex = blockIndex &+ ahead
        nextBlockCommonStart = parentBlockStart.advanced(by: Int64(ahead) * blockTicks)
    }
}
