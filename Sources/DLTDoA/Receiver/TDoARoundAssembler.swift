import AnchorFirmware
import RangingEstimation

/// Turns the measurements an app receives into range differences, one cluster round at a time,
/// using only the fields iOS gives (`DLTDOAMeasurement`): a Poll opens a round, each Response is
/// compared with it, the Final (or the cluster's next Poll) closes it.
///
/// For responder k of initiator I (all differences modulo 2⁴⁰, in 15.65 ps ticks):
///
///     d_k − d_I = c · [ (rx_k − rx_P) / α − (tx_k − tx_P) ]
///
/// where rx are the phone's receive times, tx the transmit times in the initiator's time base
/// (the Poll's own, and each Response's as its responder converted it: the anchors' common time
/// base), and α the phone's ticks per initiator tick. α comes from successive Polls of the same
/// initiator (a whole block apart, so timestamp noise hardly counts), else from the Poll and
/// Final of the round, else from the Poll's carrier frequency offset. Without α a 20 ppm
/// crystal turns an 8 ms round into 48 m of error: the clock correction is the whole game.
///
/// A lost Poll does not lose the round: the Responses carry their transmit times in the
/// initiator's time base too, so the first Response heard becomes the reference (the same
/// formula with j for P), with α from earlier Polls, or before any, from the reference
/// Response's carrier frequency offset and the clock offset to its initiator it reports.
///
/// Clusters come and go as the phone walks through a multi-cluster deployment: an initiator
/// not heard for `clusterTimeout` is forgotten (its α starts again rather than from a Poll
/// seconds old); Responses join only their own cluster's open round, which closes within
/// `roundTimeout`, so a cluster fading out mid-round leaves at most that round, as heard, and
/// never mixes into another. Where the phone hears a cluster's responders but not its
/// initiator, α comes from successive Responses of one responder (their transmit times are in
/// the same time base as the Polls'): across clusters that base is the reference's, which the
/// carrier and clock offsets of a responder do not give (they say how fast its initiator's
/// crystal runs, not the chained base), so they serve only until a second Response.
public struct TDoARoundAssembler: Sendable {
    /// Correct for the phone's clock against each initiator's (off: α = 1, to show why it matters).
    public var correctsClockOffset = true
    /// A round left open this long (s) without its Final or next Poll is closed.
    public var roundTimeout = 0.1
    /// An initiator silent this long (s) starts afresh: no α, no last Poll.
    public var clusterTimeout = 1.0

    private struct OpenRound {
        /// The Poll, or the first Response when the Poll was lost.
        var reference: DLTDOAMeasurement
        var responses: [DLTDOAMeasurement] = []
        var hasPoll: Bool { reference.measurementType == .poll }
    }

    private var open: [Int: OpenRound] = [:]
    /// The last Poll of each initiator (for α over a block).
    private var lastPoll: [Int: DLTDOAMeasurement] = [:]
    /// α per initiator, smoothed.
    private var ratio: [Int: Double] = [:]
    /// When each initiator's α was last measured (a Poll, or a Response while no Poll is heard).
    private var lastHeard: [Int: Double] = [:]
    /// The last Response of each (initiator, responder), `initiator << 16 | responder`, for α
    /// while the initiator's Polls are not heard.
    private var lastResponse: [Int: DLTDOAMeasurement] = [:]

    public init() {}

    /// The measurements held in open rounds (their Poll or first Response, and the Responses):
    /// what the assembler holds back; 0 when no round is open.
    public var heldMeasurements: Int { open.values.reduce(0) { $0 + 1 + $1.responses.count } }

    /// Adds one measurement (in arrival order); returns the rounds it completes.
    public mutating func add(_ m: DLTDOAMeasurement) -> [TDoARound] {
        var done: [TDoARound] = []
        // Close rounds left open too long (a lost Final, a lost next Poll).
        for (initiator, round) in open where m.hostTime - round.reference.hostTime > roundTimeout {
            if let r = finish(round, final: nil) { done.append(r) }
            open[initiator] = nil
        }
        let cluster = m.clusterInitiatorAddress
        switch m.measurementType {
        case .poll:
            if let round = open.removeValue(forKey: cluster), let r = finish(round, final: nil) { done.append(r) }
            forgetIfSilent(cluster, at: m.hostTime)
            if let previous = lastPoll[cluster] { updateRatio(cluster, from: previous, to: m) }
            lastPoll[cluster] = m
            lastHeard[cluster] = m.hostTime
            open[cluster] = OpenRound(reference: m)
        case .response:
            forgetIfSilent(cluster, at: m.hostTime)
            let key = cluster << 16 | m.address
            if lastPoll[cluster] == nil, let previous = lastResponse[key], m.hostTime - previous.hostTime <= clusterTimeout {
                updateRatio(cluster, from: previous, to: m)
                lastHeard[cluster] = m.hostTime
            }
            lastResponse[key] = m
            if open[cluster] == nil { open[cluster] = OpenRound(reference: m) } else { open[cluster]?.responses.append(m) }
        case .final:
            if let round = open.removeValue(forKey: cluster), let r = finish(round, final: m) { done.append(r) }
        }
        return done
    }

    /// Forgets an initiator whose α was last measured more than `clusterTimeout` before `time`.
    private mutating func forgetIfSilent(_ initiator: Int, at time: Double) {
        guard let heard = lastHeard[initiator], time - heard > clusterTimeout else { return }
        lastHeard[initiator] = nil
        lastPoll[initiator] = nil
        ratio[initiator] = nil
    }

    /// Phone ticks per initiator tick over the block between two Polls of one initiator (or two
    /// Responses of one responder).
    private mutating func updateRatio(_ initiator: Int, from a: DLTDOAMeasurement, to b: DLTDOAMeasurement) {
        let tx = Self.ticks(b.rawTransmitTime, since: a.rawTransmitTime)
        let rx = Self.ticks(b.rawReceiveTime, since: a.rawReceiveTime)
        guard tx > 0, rx > 0 else { return }
        let r = Double(rx) / Double(tx)
        guard abs(r - 1) < 100e-6 else { return }  // a lost Poll or a wrap beyond 8.6 s: not a ratio
        ratio[initiator] = ratio[initiator].map { 0.7 * $0 + 0.3 * r } ?? r
    }

    private func finish(_ round: OpenRound, final: DLTDOAMeasurement?) -> TDoARound? {
        guard !round.responses.isEmpty else { return nil }
        let reference = round.reference
        var alpha = 1.0
        if correctsClockOffset {
            if let r = ratio[reference.clusterInitiatorAddress] {
                alpha = r
            } else if !round.hasPoll {
                // Phone ticks per responder tick, times responder ticks per initiator tick.
                guard let responder = reference.responderClockFrequencyOffset else { return nil }
                alpha = (1 + reference.carrierFrequencyOffset) * (1 - responder)
            } else if let final {
                let tx = Self.ticks(final.rawTransmitTime, since: reference.rawTransmitTime)
                let rx = Self.ticks(final.rawReceiveTime, since: reference.rawReceiveTime)
                alpha = tx > 0 ? Double(rx) / Double(tx) : 1 + reference.carrierFrequencyOffset
            } else {
                alpha = 1 + reference.carrierFrequencyOffset
            }
        }
        let metresPerTick = Ranging.speedOfLight / UWBTimestamp.ticksPerSecond
        var differences: [TDoARound.Difference] = []
        var seen: Set<Int> = [reference.address]
        for r in round.responses where seen.insert(r.address).inserted {
            let rx = Double(Self.ticks(r.rawReceiveTime, since: reference.rawReceiveTime))
            let tx = Double(Self.ticks(r.rawTransmitTime, since: reference.rawTransmitTime))
            differences.append(TDoARound.Difference(address: r.address, position: r.coordinates,
                                                    rangeDifference: (rx / alpha - tx) * metresPerTick))
        }
        guard !differences.isEmpty else { return nil }
        return TDoARound(initiatorAddress: reference.clusterInitiatorAddress, referenceAddress: reference.address,
                         referencePosition: reference.coordinates, time: reference.hostTime, differences: differences)
    }

    /// `a − b` for raw 40-bit timestamps, across a wrap.
    static func ticks(_ a: UInt64, since b: UInt64) -> Int64 { UWBTimestamp(ticks: a).ticks(since: UWBTimestamp(ticks: b)) }
}
