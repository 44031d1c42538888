/// The DL-TDoA state machine of one DT-Anchor (FiRa MAC 2.0 5.9.13 OWR DL-TDoA as Qorvo's
/// `fira_owr_dt_anchor` runs it). Pure: it owns no clock and no radio, it works in the anchor's
/// local 40-bit timestamps. The caller starts each block, asks for the next transmission, and
/// hands it every received frame with its RX timestamp.
///
/// Timing (reference §1.1): round r of a block starts at start + r·slotsPerRound·slot; the
/// initiator's Poll goes in slot 0, responder k answers in slot k + 1 (or its explicit slot)
/// counted from the Poll's RX time, the Final goes after the last responder slot (DS-TWR).
/// Every TX time is requested at the slot boundary, rounded up to 512 ticks and moved by the TX
/// antenna delay (`DelayedTransmission`), and the frame carries exactly that RMARKER time.
///
/// Across clusters (`configuration.timeReference`), a `BlockSynchronizer` says when blocks start
/// and maps local to common time: the caller starts the reference's first block, then asks
/// `nextBlockStart` and calls `startNextBlock()` there; a bridge starts none until its parent's
/// Polls have synchronised it. Polls then carry the hop count, and every TX timestamp is in the
/// reference's time base.
///
/// Decision: the Poll and Response carry the anchor's location every time (a tag that joins late
/// needs it in every round), the Poll a hop count only with a time reference role, and no
/// active-round list; the Response's ToF field is always present with DS-TWR, 0 until a first
/// Final has been heard.
public struct AnchorEngine: Sendable {
    public let configuration: AnchorConfiguration
    /// Index of the current block (the initiator's; a responder echoes the Poll's).
    public private(set) var blockIndex: UInt16 = 0
    var pending: [PendingTransmission] = []
    /// Reference for ordering pending times across the 40-bit wrap.
    var epoch = UWBTimestamp(ticks: 0)
    var initiatorRounds: [InitiatorRoundState] = []
    var responderRounds: [ResponderRoundState] = []
    /// Block timing and common time base across clusters; nil for a standalone cluster.
    public internal(set) var synchronizer: BlockSynchronizer?

    public init(configuration: AnchorConfiguration) {
        self.configuration = configuration
        synchronizer = configuration.timeReference.map { BlockSynchronizer(role: $0, configuration: configuration) }
        for assignment in configuration.rounds {
            switch assignment {
            case let .initiator(round, responders, slots):
                initiatorRounds.append(InitiatorRoundState(round: round, responders: responders, slots: slots))
            case let .responder(round, initiator):
                responderRounds.append(ResponderRoundState(round: round, initiator: initiator))
            }
        }
    }

    var doubleSided: Bool { configuration.rangingMethod == .doubleSided }

    func rmarker(_ requested: UWBTimestamp) -> UWBTimestamp {
        DelayedTransmission.rmarker(requested: requested, antennaDelayTicks: configuration.txAntennaDelayTicks)
    }

    /// Starts block `index` at local time `start`: schedules the Poll (and Final) of every round
    /// this anchor initiates. Frames still pending from the previous block are dropped.
    public mutating func startBlock(index: UInt16, at start: UWBTimestamp) {
        synchronizer?.blockStarted(index: index, at: start)
        blockIndex = index
        epoch = start
        pending.removeAll { $0.kind != .response }
        for i in initiatorRounds.indices {
            let state = initiatorRounds[i]
            let roundStart = start.advanced(by: Int64(state.round) * configuration.roundTicks)
            initiatorRounds[i].blockIndex = index
            initiatorRounds[i].pollTx = nil
            for k in state.responseRx.indices { initiatorRounds[i].responseRx[k] = nil }
            pending.append(PendingTransmission(kind: .poll, round: state.round, time: rmarker(roundStart)))
            if doubleSided {
                let slot = AnchorConfiguration.finalSlot(responderCount: state.responders.count, slots: state.slots)
                let finalStart = roundStart.advanced(by: Int64(slot) * configuration.slotTicks)
                pending.append(PendingTransmission(kind: .final, round: state.round, time: rmarker(finalStart)))
            }
        }
    }

    /// Hops from the reference (0xFF unsynchronised); nil without a time reference role.
    public var hopCount: UInt8? { synchronizer?.hopCount }

    /// Index and local start of the next block this anchor starts itself (reference or
    /// synchronised bridge), nil otherwise.
    public var nextBlockStart: (index: UInt16, time: UWBTimestamp)? { synchronizer?.nextBlockStart }

    /// Starts the block `nextBlockStart` announced; false (and unsynchronised) when a bridge
    /// has not heard its parent within the holdover, or when there is none.
    @discardableResult
    public mutating func startNextBlock() -> Bool {
        guard var s = synchronizer, let next = s.nextBlockStart else { return false }
        let allowed = s.mayStartBlock(at: next.time)
        synchronizer = s
        if allowed { startBlock(index: next.index, at: next.time) }
        return allowed
    }

    /// Index in `pending` of the earliest transmission.
    var nextIndex: Int? {
        var best: Int?
        for i in pending.indices
        where best == nil || pending[i].time.ticks(since: epoch) < pending[best!].time.ticks(since: epoch) {
            best = i
        }
        return best
    }

    /// RMARKER time (local clock) of the next frame this anchor will send, if any.
    public var nextTransmissionTime: UWBTimestamp? { nextIndex.map { pending[$0].time } }

    /// Builds the next frame with everything received so far and commits to sending it at its
    /// RMARKER time.
    public mutating func transmitNext() -> (time: UWBTimestamp, frame: [UInt8])? {
        guard let index = nextIndex else { return nil }
        let next = pending.remove(at: index)
        let message: DTMessage
        var block = blockIndex
        // Poll and Final are in the initiator's own clock, which is the common time base; across
        // clusters, mapped to the reference's (local, bit 13 clear, if a bridge lost its map).
        var commonBase = configuration.commonTimeBase && next.kind != .response
        var tx = next.time
        if commonBase, let s = synchronizer {
            if let base = s.timeBase { tx = base.common(at: next.time) } else { commonBase = false }
        }
        switch next.kind {
        case .poll:
            guard let i = initiatorRounds.firstIndex(where: { $0.round == next.round }) else { return nil }
            initiatorRounds[i].pollTx = next.time
            let state = initiatorRounds[i]
            var entries: [DTManagementEntry] = []
            entries.reserveCapacity(state.responders.count)
            for (k, address) in state.responders.enumerated() {
                entries.append(DTManagementEntry(
                    address: address, slotIndex: state.slots.isEmpty ? nil : state.slots[k],
                    timeOfFlightTicks: doubleSided ? nil : state.singleSidedToF[k]))
            }
            block = state.blockIndex
            message = .poll(DTPoll(txTimestamp: tx, finalFollows: doubleSided, responders: entries,
                                   hopCount: synchronizer?.hopCount, location: configuration.coordinates))
        case .final:
            guard let state = initiatorRounds.first(where: { $0.round == next.round }) else { return nil }
            var replies: [DTReplyTimeEntry] = []
            for (k, rx) in state.responseRx.enumerated() {
                guard let rx else { continue }
                replies.append(DTReplyTimeEntry(address: state.responders[k],
                                                replyTimeTicks: UInt32(truncatingIfNeeded: next.time.ticks(since: rx))))
            }
            block = state.blockIndex
            message = .final(DTFinal(txTimestamp: tx, replyTimes: replies))
        case .response:
            guard let i = responderRounds.firstIndex(where: { $0.round == next.round }),
                  let pollRx = responderRounds[i].pollRx else { return nil }
            responderRounds[i].responseTx = next.time
            let state = responderRounds[i]
            block = state.blockIndex ?? blockIndex
            if configuration.commonTimeBase, let common = commonTime(of: next.time, state) {
                tx = common
                commonBase = true
            }
            message = .response(DTResponse(
                txTimestamp: tx, finalFollows: state.finalFollows, cfoQ610: state.cfoQ610,
                replyTimeTicks: UInt32(truncatingIfNeeded: next.time.ticks(since: pollRx)),
                timeOfFlightTicks: state.finalFollows ? state.timeOfFlight : nil,
                location: configuration.coordinates))
        }
        let frame = DTFrame(sourceAddress: configuration.shortAddress, sessionID: configuration.sessionID,
                            roundIndex: next.round, blockIndex: block, commonTimeBase: commonBase, message: message)
        return (next.time, frame.encode())
    }

    /// A Response's TX time `tx` (local) in the Poll's time base (Qorvo's `fira_time_sync`):
    /// the Poll left at pollTx, reached this anchor ToF later, and the reply took
    /// (tx − pollRx)/β ticks of that base. Nil without a ToF or a rate.
    func commonTime(of tx: UWBTimestamp, _ state: ResponderRoundState) -> UWBTimestamp? {
        guard let pollTx = state.pollTx, let pollRx = state.pollRx, let beta = state.responderTicksPerPollTick,
              let tof = timeOfFlight(state) else { return nil }
        let reply = Double(tx.ticks(since: pollRx)) / beta
        return pollTx.advanced(by: tof + Int64(reply.rounded()))
    }

    /// The ToF from this round's initiator, ticks: from the two anchors' surveyed positions when
    /// both are relative coordinates, else from the last DS-TWR exchange; nil without either.
    func timeOfFlight(_ state: ResponderRoundState) -> Int64? {
        if case let .relative(x0, y0, z0)? = state.initiatorLocation, case let .relative(x1, y1, z1) = configuration.coordinates {
            let (dx, dy, dz) = (Double(x1) - Double(x0), Double(y1) - Double(y0), Double(z1) - Double(z0))
            let metres = (dx * dx + dy * dy + dz * dz).squareRoot() / 1000
            return Int64((metres / Self.speedOfLight * UWBTimestamp.ticksPerSecond).rounded())
        }
        return state.timeOfFlight > 0 ? Int64(state.timeOfFlight) : nil
    }

    /// m/s.
    static let speedOfLight = 299_792_458.0

    /// Responder ticks per tick of a chained Poll time base, from the previous Poll of the
    /// round to this one (a few blocks apart at most); nil without a plausible previous Poll.
    static func pollIntervalRatio(from state: ResponderRoundState, to tx: UWBTimestamp, at rx: UWBTimestamp) -> Double? {
        guard let previousTx = state.pollTx, let previousRx = state.pollRx else { return nil }
        let local = rx.ticks(since: previousRx), common = tx.ticks(since: previousTx)
        guard local > 0, common > 0, local < 1 << 37 else { return nil }
        let ratio = Double(local) / Double(common)
        return abs(ratio - 1) < 1e-4 ? ratio : nil
    }

    /// Handles a frame received at local time `rx`. `carrierFrequencyOffsetPPM` is the radio's
    /// measure of the sender's frequency relative to this anchor's,
    /// (f_sender/f_receiver − 1)·10⁶, positive when the sender runs fast.
    public mutating func receive(_ bytes: some Collection<UInt8>, at rx: UWBTimestamp,
                                 carrierFrequencyOffsetPPM: Double) -> AnchorReceiveOutcome {
        let frame: DTFrame
        do { frame = try DTFrame.decode(bytes) } catch { return .rejected(error) }
        if frame.sessionID != configuration.sessionID { return .ignored(.otherSession(frame.sessionID)) }
        if let i = initiatorRounds.firstIndex(where: { $0.round == frame.roundIndex }) {
            return receiveAsInitiator(frame, at: rx, state: i)
        }
        if let i = responderRounds.firstIndex(where: { $0.round == frame.roundIndex }) {
            return receiveAsResponder(frame, at: rx, ppm: carrierFrequencyOffsetPPM, state: i)
        }
        return .ignored(.roundNotAssigned(frame.roundIndex))
    }

    mutating func receiveAsInitiator(_ frame: DTFrame, at rx: UWBTimestamp, state i: Int) -> AnchorReceiveOutcome {
        guard case let .response(response) = frame.message else { return .ignored(.unexpectedMessage(frame.message.type)) }
        let state = initiatorRounds[i]
        guard let k = state.responders.firstIndex(of: frame.sourceAddress) else {
            return .ignored(.unexpectedSender(frame.sourceAddress))
        }
        guard frame.blockIndex == state.blockIndex, let pollTx = state.pollTx else { return .ignored(.otherBlock(frame.blockIndex)) }
        initiatorRounds[i].responseRx[k] = rx
        if !doubleSided {
            let beta = ClockFrequencyOffset.responderTicksPerInitiatorTick(q610: response.cfoQ610 ?? 0)
            let tof = TwoWayRanging.singleSidedTimeOfFlight(ra: rx.ticks(since: pollTx), db: Int64(response.replyTimeTicks),
                                                            responderTicksPerInitiatorTick: beta)
            initiatorRounds[i].singleSidedToF[k] = TwoWayRanging.field(tof)
        }
        return .recordedResponse(round: frame.roundIndex, responder: frame.sourceAddress)
    }

    mutating func receiveAsResponder(_ frame: DTFrame, at rx: UWBTimestamp, ppm: Double, state i: Int) -> AnchorReceiveOutcome {
        let state = responderRounds[i]
        if frame.sourceAddress != state.initiator {
            if case .response = frame.message { return .ignored(.unexpectedMessage(.response)) }
            return .ignored(.unexpectedSender(frame.sourceAddress))
        }
        switch frame.message {
        case let .poll(poll):
            guard let k = poll.responders.firstIndex(where: { $0.address == configuration.shortAddress }) else {
                return .ignored(.notListed)
            }
            let slot = Int(poll.responders[k].slotIndex ?? UInt8(k + 1))
            let cfoBeta = 1 / (1 + ppm * 1e-6)
            var beta: Double? = cfoBeta
            if (poll.hopCount ?? BlockSynchronizer.referenceHopCount) != BlockSynchronizer.referenceHopCount {
                beta = Self.pollIntervalRatio(from: state, to: poll.txTimestamp, at: rx)
            }
            responderRounds[i].responderTicksPerPollTick = beta
            responderRounds[i].initiatorTicksPerPollTick = beta.map { $0 / cfoBeta } ?? 1
            responderRounds[i].blockIndex = frame.blockIndex
            responderRounds[i].pollTx = poll.txTimestamp
            responderRounds[i].pollRx = rx
            responderRounds[i].responseTx = nil
            responderRounds[i].finalFollows = poll.finalFollows
            responderRounds[i].cfoQ610 = ClockFrequencyOffset.q610(initiatorOffsetPPM: ppm)
            responderRounds[i].initiatorLocation = poll.location
            if frame.commonTimeBase, let tof = timeOfFlight(responderRounds[i]) {
                synchronizer?.receivedPoll(round: state.round, tx: poll.txTimestamp, hopCount: poll.hopCount,
                                           blockIndex: frame.blockIndex, at: rx, timeOfFlightTicks: tof)
            }
            pending.removeAll { $0.kind == .response && $0.round == state.round }
            if pending.isEmpty { epoch = rx }
            let time = rmarker(rx.advanced(by: Int64(slot) * configuration.slotTicks))
            pending.append(PendingTransmission(kind: .response, round: state.round, time: time))
            return .scheduledResponse(round: state.round, at: time)
        case let .final(final):
            guard frame.blockIndex == state.blockIndex, let pollTx = state.pollTx, let pollRx = state.pollRx,
                  let responseTx = state.responseTx else { return .ignored(.otherBlock(frame.blockIndex)) }
            guard let entry = final.replyTimes.first(where: { $0.address == configuration.shortAddress }) else {
                return .ignored(.notListed)
            }
            guard state.responderTicksPerPollTick != nil else { return .ignored(.timeBaseUnknown) }
            let da = Int64(entry.replyTimeTicks)
            var ra = final.txTimestamp.ticks(since: pollTx)
            if state.initiatorTicksPerPollTick != 1 { ra = Int64((Double(ra) * state.initiatorTicksPerPollTick).rounded()) }
            ra -= da
            let tof = TwoWayRanging.doubleSidedTimeOfFlight(
                ra: ra, rb: rx.ticks(since: responseTx), da: da, db: responseTx.ticks(since: pollRx))
            let field = TwoWayRanging.field(tof)
            responderRounds[i].timeOfFlight = field
            return .measuredTimeOfFlight(round: state.round, ticks: field)
        case .response:
            return .ignored(.unexpectedMessage(.response))
        }
    }
}
