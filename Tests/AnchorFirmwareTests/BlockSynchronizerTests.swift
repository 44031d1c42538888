import Testing
@testable import AnchorFirmware

extension Array where Element == SimulatedAnchor {
    /// Runs a network on the anchors' own block timing up to true time `end`: every block start
    /// and transmission in true-time order, frames delivered at the speed of light without noise.
    mutating func runNetwork(until end: Double, log: inout AirLog) {
        var now = 0.0
        while true {
            var best: (anchor: Int, time: Double, isBlockStart: Bool)?
            for i in indices {
                if let start = self[i].engine.nextBlockStart {
                    let t = self[i].clock.trueTime(of: start.time, near: now)
                    if best == nil || t < best!.time { best = (i, t, true) }
                }
                if let next = self[i].engine.nextTransmissionTime {
                    let t = self[i].clock.trueTime(of: next, near: now)
                    if best == nil || t < best!.time { best = (i, t, false) }
                }
            }
            guard let (s, t, isBlockStart) = best, t <= end else { return }
            now = Swift.max(now, t)
            if isBlockStart {
                self[s].engine.startNextBlock()
                continue
            }
            guard let (_, octets) = self[s].engine.transmitNext() else { return }
            let sender = self[s].engine.configuration.shortAddress
            log.sent.append((sender, try! DTFrame.decode(octets), t))
            for r in indices where r != s {
                let arrival = t + distance(s, r) / Self.speedOfLight
                let rx = self[r].clock.timestamp(atTrueTime: arrival)
                let cfo = (self[s].clock.ratio(atTrueTime: arrival) / self[r].clock.ratio(atTrueTime: arrival) - 1) * 1e6
                log.outcomes.append((self[r].engine.configuration.shortAddress, self[r].engine.receive(octets, at: rx, carrierFrequencyOffsetPPM: cfo)))
            }
        }
    }
}

/// Multi-cluster timing: the hop count in the Poll, a bridge's block start and common time base
/// from its parent's Polls, the holdover, and a two-cluster network chained through a bridge.
struct BlockSynchronizerTests {
    static let slot = Int64(63_897_600)
    static let block = 200 * slot

    static func configuration(_ address: UInt16, _ rounds: [RoundAssignment], _ role: TimeReferenceRole?,
                              at p: (Int32, Int32, Int32)) throws -> AnchorConfiguration {
        try AnchorConfiguration(sessionID: 0x2222_2222, shortAddress: address, coordinates: .relative(x: p.0, y: p.1, z: p.2),
                                rounds: rounds, timeReference: role).validated()
    }

    /// The reference's Poll: message control bit 16 (hop count present) and the hop count octet
    /// 0 right after the management list (FiRa MAC 2.0 5.9.13.2, Qorvo `fira_owr_dt_frame_poll`),
    /// then the location type; its next block is one block of its own crystal later.
    @Test func referencePollCarriesHopCountZero() throws {
        var engine = AnchorEngine(configuration: try Self.configuration(0x0100, [.initiator(round: 0, responders: [0x0201, 0x0202])],
                                                                        .reference, at: (0, 0, 0)))
        #expect(engine.hopCount == 0 && engine.nextBlockStart == nil)
        let start = UWBTimestamp(ticks: (1 << 40) - 1000)
        engine.startBlock(index: 4, at: start)
        let next = try #require(engine.nextBlockStart)
        #expect(next.index == 5 && next.time == start.advanced(by: Self.block))
        let sent = engine.transmitNext()
        let octets = try #require(sent).frame
        // Control octets 36-38: bit 16 is bit 0 of the third; 47-50 the two addresses.
        #expect(octets[38] & 1 == 1)
        #expect(Array(octets[47...51]) == [0x01, 0x02, 0x02, 0x02, 0x00])
        #expect(octets[52] == 0x01)  // location type: relative
        guard case let .poll(poll) = try DTFrame.decode(octets).message else { Issue.record("not a Poll"); return }
        #expect(poll.hopCount == 0 && poll.txTimestamp == DelayedTransmission.rmarker(requested: start, antennaDelayTicks: 16_400))
        // Without a time reference role the Poll has no hop count, as before.
        var standalone = AnchorEngine(configuration: try Self.configuration(0x0100, [.initiator(round: 0, responders: [0x0201])], nil, at: (0, 0, 0)))
        standalone.startBlock(index: 0, at: start)
        let sentPlain = standalone.transmitNext()
        let plain = try #require(sentPlain)
        #expect(try DTFrame.decode(plain.frame).messageControl.hopCountPresent == false)
    }

    /// A bridge (responder in round 1, initiator of round 3) with a crystal 20 ppm fast: the first
    /// parent Poll leaves it unsynchronised (0xFF); from the second it maps local to common time
    /// (common(rx) = Poll TX + ToF, the rate over the interval), takes hop count 1, and starts
    /// block 11 where the parent's started: Poll TX − 1 round − TX antenna delay.
    @Test func bridgeDerivesBlockStartFromParentPolls() throws {
        let config = try Self.configuration(0x0300, [.responder(round: 1, initiator: 0x0100), .initiator(round: 3, responders: [0x0301])],
                                            .bridge(parentRound: 1), at: (6_000, 8_000, 0))
        var sync = BlockSynchronizer(role: .bridge(parentRound: 1), configuration: config)
        let tof: Int64 = 2_131_400  // 10 m
        let ppm = 20.0
        let poll1 = UWBTimestamp(ticks: 5_000_000_000), rx1 = UWBTimestamp(ticks: (1 << 40) - 300_000)
        sync.receivedPoll(round: 1, tx: poll1, hopCount: 0, blockIndex: 10, at: rx1, timeOfFlightTicks: tof)
        #expect(sync.hopCount == 0xFF && sync.timeBase == nil && sync.nextBlockStart == nil)
        // A Poll of another round, or one from an unsynchronised parent, changes nothing.
        sync.receivedPoll(round: 2, tx: poll1.advanced(by: Self.block), hopCount: 0, blockIndex: 11, at: rx1.advanced(by: Self.block), timeOfFlightTicks: tof)
        #expect(sync.hopCount == 0xFF)
        let poll2 = poll1.advanced(by: Self.block)
        let rx2 = rx1.advanced(by: Int64((Double(Self.block) * (1 + ppm * 1e-6)).rounded()))
        sync.receivedPoll(round: 1, tx: poll2, hopCount: 0, blockIndex: 11, at: rx2, timeOfFlightTicks: tof)
        #expect(sync.hopCount == 1)
        let base = try #require(sync.timeBase)
        #expect(abs(base.commonTicksPerLocalTick * (1 + ppm * 1e-6) - 1) < 1e-10)
        #expect(base.common(at: rx2) == poll2.advanced(by: tof))
        let next = try #require(sync.nextBlockStart)
        let commonStart = poll2.advanced(by: -(10 * Self.slot + 16_400))
        #expect(next.index == 11 && sync.nextBlockCommonStart == commonStart)
        // In local time: back from rx2 by (ToF + 1 round + antenna delay) of common time, 20 ppm longer.
        let expected = rx2.advanced(by: -Int64((Double(tof + 10 * Self.slot + 16_400) * (1 + ppm * 1e-6)).rounded()))
        #expect(abs(next.time.ticks(since: expected)) <= 1)
        // A bridge whose own round comes before its parent's starts the parent's next block.
        let early = try Self.configuration(0x0300, [.responder(round: 1, initiator: 0x0100), .initiator(round: 0, responders: [0x0301])],
                                           .bridge(parentRound: 1), at: (6_000, 8_000, 0))
        var before = BlockSynchronizer(role: .bridge(parentRound: 1), configuration: early)
        before.receivedPoll(round: 1, tx: poll1, hopCount: 2, blockIndex: 10, at: rx1, timeOfFlightTicks: tof)
        before.receivedPoll(round: 1, tx: poll2, hopCount: 2, blockIndex: 11, at: rx2, timeOfFlightTicks: tof)
        #expect(before.hopCount == 3 && before.nextBlockStart?.index == 12)
        #expect(before.nextBlockCommonStart == commonStart.advanced(by: Self.block))
        // A parent that is itself unsynchronised (0xFF) synchronises no one.
        var orphan = BlockSynchronizer(role: .bridge(parentRound: 1), configuration: config)
        orphan.receivedPoll(round: 1, tx: poll1, hopCount: 0xFF, blockIndex: 10, at: rx1, timeOfFlightTicks: tof)
        orphan.receivedPoll(round: 1, tx: poll2, hopCount: 0xFF, blockIndex: 11, at: rx2, timeOfFlightTicks: tof)
        #expect(orphan.hopCount == 0xFF && orphan.timeBase == nil)
    }

    /// Two clusters: the reference R initiates round 0 for A and the bridge B; B initiates round 2
    /// for C. On ±20 ppm crystals, without noise, B synchronises from R's second Poll, its Polls
    /// say hop 1 and go out two rounds after R's block start; every TX timestamp of round 2 (B's
    /// Poll and Final, C's Responses from B's second Poll on) is R's counter at that instant
    /// within 4 ticks (63 ps), and C's DS-TWR ToF, from a Poll-to-Final interval in common
    /// ticks, is within 2 ticks (none from the first Final, whose interval it cannot convert).
    @Test func twoClustersChainedThroughABridge() throws {
        let clocks = [AnchorClock(offsetTicks: 123_456_789, frequencyOffsetPPM: 20),
                      AnchorClock(offsetTicks: 900_000_000_000, frequencyOffsetPPM: -20),
                      AnchorClock(offsetTicks: 5_000_000_000, frequencyOffsetPPM: -15, driftPPMPerSecond: 0.01),
                      AnchorClock(offsetTicks: (1 << 40) - 5_000_000_000, frequencyOffsetPPM: 7.5)]
        let places: [(Int32, Int32, Int32)] = [(0, 0, 2_800), (8_000, 0, 2_800), (16_000, 0, 2_800), (24_000, 3_000, 500)]
        var anchors = [
            SimulatedAnchor(engine: AnchorEngine(configuration: try Self.configuration(
                0x0100, [.initiator(round: 0, responders: [0x0201, 0x0300])], .reference, at: places[0])), clock: clocks[0], position: (0, 0, 2.8)),
            SimulatedAnchor(engine: AnchorEngine(configuration: try Self.configuration(
                0x0201, [.responder(round: 0, initiator: 0x0100)], nil, at: places[1])), clock: clocks[1], position: (8, 0, 2.8)),
            SimulatedAnchor(engine: AnchorEngine(configuration: try Self.configuration(
                0x0300, [.responder(round: 0, initiator: 0x0100), .initiator(round: 2, responders: [0x0301])], .bridge(parentRound: 0),
                at: places[2])), clock: clocks[2], position: (16, 0, 2.8)),
            SimulatedAnchor(engine: AnchorEngine(configuration: try Self.configuration(
                0x0301, [.responder(round: 2, initiator: 0x0300)], nil, at: places[3])), clock: clocks[3], position: (24, 3, 0.5)),
        ]
        let start = 0.05
        anchors[0].engine.startBlock(index: 0, at: anchors[0].clock.timestamp(atTrueTime: start))
        var log = AirLog()
        anchors.runNetwork(until: 2.0, log: &log)
        let round2 = log.sent.filter { $0.frame.roundIndex == 2 }
        let polls = round2.filter { $0.frame.message.type == .poll }
        // R's Polls at 0.05 s and 0.25 s synchronise B, which starts block 1 (round 2 after round 0).
        #expect(polls.count == 9 && polls.first?.frame.blockIndex == 1)
        for p in polls {
            guard case let .poll(poll) = p.frame.message else { continue }
            #expect(poll.hopCount == 1 && p.frame.commonTimeBase)
            // Block k starts with R's, 0.2·k s of R's crystal (20 ppm fast: 4 µs a block early)
            // after its block 0; round 2 then comes two rounds (20 ms) and a TX antenna delay
            // later on B's own crystal (−15 ppm), as every anchor times its slots.
            let blockStart = start + 0.2 * Double(p.frame.blockIndex) / (1 + 20e-6)
            let nominal = blockStart + (0.02 + 16_400 / UWBTimestamp.ticksPerSecond) / clocks[2].ratio(atTrueTime: blockStart)
            #expect(abs(p.trueTime - nominal) < 30e-9)
        }
        // C answers B's first Poll in its local time base (bit 13 clear): no rate to the common base yet.
        let responses = round2.filter { $0.frame.message.type == .response }
        #expect(responses.map(\.frame.commonTimeBase) == [false] + Array(repeating: true, count: 8))
        for sent in round2 where sent.frame.commonTimeBase {
            let reference = anchors[0].clock.timestamp(atTrueTime: sent.trueTime)
            let error = sent.frame.message.txTimestamp.ticks(since: reference)
            #expect(abs(error) <= 4, "\(sent.frame.message.type) of block \(sent.frame.blockIndex): \(error) ticks off the reference")
        }
        #expect(responses.count == 9 && round2.filter { $0.frame.message.type == .final }.count == 9)
        let flight = anchors.flightTicks(2, 3)
        let tofs = log.outcomes.compactMap { entry -> Int16? in
            if entry.address == 0x0301, case let .measuredTimeOfFlight(2, ticks) = entry.outcome { return ticks }
            return nil
        }
        #expect(log.outcomes.contains { $0.address == 0x0301 && $0.outcome == .ignored(.timeBaseUnknown) })
        #expect(tofs.count == 8 && tofs.allSatisfy { abs(Double($0) - flight) <= 2 })
        #expect(anchors[2].engine.hopCount == 1 && anchors[3].engine.hopCount == nil)
    }

    /// A bridge that stops hearing its parent keeps its blocks for 5 blocks, then is
    /// unsynchronised (0xFF) and initiates nothing until its parent's Polls come back.
    @Test func holdoverThenUnsynchronised() throws {
        let config = try Self.configuration(0x0300, [.responder(round: 1, initiator: 0x0100), .initiator(round: 3, responders: [0x0301])],
                                            .bridge(parentRound: 1), at: (0, 0, 0))
        var engine = AnchorEngine(configuration: config)
        var sync = try #require(engine.synchronizer)
        #expect(sync.hopCount == 0xFF && engine.nextBlockStart == nil && !engine.startNextBlock())
        let rx = UWBTimestamp(ticks: 1_000_000)
        sync.receivedPoll(round: 1, tx: UWBTimestamp(ticks: 0), hopCount: 0, blockIndex: 0, at: rx, timeOfFlightTicks: 0)
        sync.receivedPoll(round: 1, tx: UWBTimestamp(ticks: UInt64(Self.block)), hopCount: 0, blockIndex: 1, at: rx.advanced(by: Self.block), timeOfFlightTicks: 0)
        engine.synchronizer = sync
        var started: [UInt16] = []
        while engine.startNextBlock() { started.append(engine.blockIndex) }
        #expect(started == [1, 2, 3, 4, 5, 6])
        #expect(engine.hopCount == 0xFF && engine.nextBlockStart == nil)
    }

    /// A bridge must respond in its parent round and keep the common time base.
    @Test func bridgeConfigurationErrors() {
        #expect(throws: AnchorConfigurationError.bridgeParentNotResponded(round: 2)) {
            try Self.configuration(0x0300, [.responder(round: 1, initiator: 0x0100), .initiator(round: 3, responders: [0x0301])],
                                   .bridge(parentRound: 2), at: (0, 0, 0))
        }
        var c = AnchorConfiguration(sessionID: 1, shortAddress: 0x0300, coordinates: .relative(x: 0, y: 0, z: 0),
                                    rounds: [.responder(round: 1, initiator: 0x0100)], commonTimeBase: false, timeReference: .bridge(parentRound: 1))
        #expect(throws: AnchorConfigurationError.bridgeWithoutCommonTimeBase) { try c.validated() }
        c.commonTimeBase = true
        #expect((try? c.validated()) != nil)
        #expect(AnchorConfigurationError.bridgeParentNotResponded(round: 2).description.contains("does not respond in round 2"))
    }
}
