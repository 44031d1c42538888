import Testing
@testable import AnchorFirmware

/// A small air: anchors with their own crystals exchanging frames at the speed of light.
struct SimulatedAnchor {
    var engine: AnchorEngine
    var clock: AnchorClock
    var position: (x: Double, y: Double, z: Double)
}

struct AirLog {
    /// (sender, frame, true TX time) of every frame sent.
    var sent: [(address: UInt16, frame: DTFrame, trueTime: Double)] = []
    var outcomes: [(address: UInt16, outcome: AnchorReceiveOutcome)] = []
}

extension Array where Element == SimulatedAnchor {
    static let speedOfLight = 299_792_458.0

    func distance(_ a: Int, _ b: Int) -> Double {
        let p = self[a].position, q = self[b].position
        let dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// True flight time a→b in ticks of an ideal clock.
    func flightTicks(_ a: Int, _ b: Int) -> Double { distance(a, b) / Self.speedOfLight * UWBTimestamp.ticksPerSecond }

    /// Starts block `index` at true time `t` on every anchor and runs it to the end; `drop(sender, receiver)`
    /// loses a frame.
    mutating func runBlock(_ index: UInt16, atTrueTime t: Double, log: inout AirLog,
                           drop: (UInt16, UInt16) -> Bool = { _, _ in false }) {
        for i in indices { self[i].engine.startBlock(index: index, at: self[i].clock.timestamp(atTrueTime: t)) }
        while true {
            var best: (anchor: Int, time: Double)?
            for i in indices {
                guard let next = self[i].engine.nextTransmissionTime else { continue }
                let tt = self[i].clock.trueTime(of: next, near: t)
                if best == nil || tt < best!.time { best = (i, tt) }
            }
            guard let (s, txTrue) = best, let (_, octets) = self[s].engine.transmitNext() else { return }
            let sender = self[s].engine.configuration.shortAddress
            log.sent.append((sender, try! DTFrame.decode(octets), txTrue))
            for r in indices where r != s {
                let receiver = self[r].engine.configuration.shortAddress
                if drop(sender, receiver) { continue }
                let arrival = txTrue + distance(s, r) / Self.speedOfLight
                let rx = self[r].clock.timestamp(atTrueTime: arrival)
                let cfo = (self[s].clock.ratio(atTrueTime: arrival) / self[r].clock.ratio(atTrueTime: arrival) - 1) * 1e6
                log.outcomes.append((receiver, self[r].engine.receive(octets, at: rx, carrierFrequencyOffsetPPM: cfo)))
            }
        }
    }
}

/// The anchor state machine in a simulated cluster.
struct AnchorEngineTests {
    /// Three anchors; `commonTimeBase` off keeps every TX timestamp in its sender's clock (the
    /// checks of reply times below compare local times).
    static func cluster(method: RangingMethod = .doubleSided, clocks: [AnchorClock], commonTimeBase: Bool = false) -> [SimulatedAnchor] {
        let places: [UInt16: (Int32, Int32, Int32)] = [0x0100: (0, 0, 0), 0x0201: (10_000, 0, 0), 0x0202: (3_000, 7_000, 2_000)]
        func config(_ address: UInt16, _ rounds: [RoundAssignment]) -> AnchorConfiguration {
            let p = places[address]!
            return try! AnchorConfiguration(sessionID: 0x1111_1111, shortAddress: address, coordinates: .relative(x: p.0, y: p.1, z: p.2),
                                            rangingMethod: method, rounds: rounds, commonTimeBase: commonTimeBase).validated()
        }
        return [
            SimulatedAnchor(engine: AnchorEngine(configuration: config(0x0100, [.initiator(round: 1, responders: [0x0201, 0x0202])])),
                            clock: clocks[0], position: (0, 0, 0)),
            SimulatedAnchor(engine: AnchorEngine(configuration: config(0x0201, [.responder(round: 1, initiator: 0x0100)])),
                            clock: clocks[1], position: (10, 0, 0)),
            SimulatedAnchor(engine: AnchorEngine(configuration: config(0x0202, [.responder(round: 1, initiator: 0x0100)])),
                            clock: clocks[2], position: (3, 7, 2)),
        ]
    }

    static let clocks = [
        AnchorClock(offsetTicks: 123_456_789, frequencyOffsetPPM: 20),
        AnchorClock(offsetTicks: 987_654_321_000, frequencyOffsetPPM: -20),
        AnchorClock(offsetTicks: 5_000_000_000, frequencyOffsetPPM: 7.5, driftPPMPerSecond: 0.01),
    ]

    /// In the common time base a Response's TX timestamp is the initiator's clock reading at
    /// the instant the Response left (ToF from the surveyed positions, the reply scaled by the
    /// measured frequency offset), within a few ticks despite ±20 ppm; Poll and Final say so too.
    @Test func commonTimeBase() throws {
        var anchors = Self.cluster(clocks: Self.clocks, commonTimeBase: true)
        var log = AirLog()
        anchors.runBlock(3, atTrueTime: 5.0, log: &log)
        #expect(log.sent.map { $0.frame.message.type } == [.poll, .response, .response, .final])
        #expect(log.sent.allSatisfy { $0.frame.commonTimeBase })
        for sent in log.sent where sent.frame.message.type == .response {
            let initiatorReading = anchors[0].clock.timestamp(atTrueTime: sent.trueTime)
            let error = sent.frame.message.txTimestamp.ticks(since: initiatorReading)
            #expect(abs(error) <= 3, "response of \(sent.address): \(error) ticks off the initiator's clock")
        }
    }

    /// Round 1 of block 7: Poll at the round start, Responses in slots 1 and 2 after the Poll's RX with
    /// Db = tx − rx exactly, Final in slot 3 listing both with Da = tx_Final − rx_Response.
    @Test func oneRoundOfDoubleSidedRanging() throws {
        var anchors = Self.cluster(clocks: Self.clocks)
        var log = AirLog()
        let start = anchors[0].clock.timestamp(atTrueTime: 2.0)
        anchors.runBlock(7, atTrueTime: 2.0, log: &log)
        #expect(log.sent.map { $0.frame.message.type } == [.poll, .response, .response, .final])
        #expect(log.sent.allSatisfy { $0.frame.blockIndex == 7 && $0.frame.roundIndex == 1 })

        let slot = Int64(63_897_600)
        let pollTx = log.sent[0].frame.message.txTimestamp
        // Round 1 starts one round (10 slots) after the block: rounded up to 512 ticks, + 16 400.
        #expect(pollTx == DelayedTransmission.rmarker(requested: start.advanced(by: 10 * slot), antennaDelayTicks: 16_400))
        // The frame's TX timestamp is the counter value at the true instant the frame left.
        #expect(anchors[0].clock.timestamp(atTrueTime: log.sent[0].trueTime + 4e-12) == pollTx)

        for (k, responder) in [1, 2].enumerated() {
            let sent = log.sent[1 + k]
            guard case let .response(response) = sent.frame.message else { Issue.record("not a response"); return }
            let pollRx = anchors[responder].clock.timestamp(atTrueTime: log.sent[0].trueTime + anchors.distance(0, responder) / 299_792_458)
            #expect(response.txTimestamp == DelayedTransmission.rmarker(requested: pollRx.advanced(by: Int64(k + 1) * slot),
                                                                        antennaDelayTicks: 16_400))
            #expect(Int64(response.replyTimeTicks) == response.txTimestamp.ticks(since: pollRx))
            #expect(response.timeOfFlightTicks == 0)  // no DS-TWR result before the first Final
        }
        guard case let .final(final) = log.sent[3].frame.message else { Issue.record("no final"); return }
        #expect(final.replyTimes.map { $0.address } == [0x0201, 0x0202])
        for (k, responder) in [1, 2].enumerated() {
            let rx = anchors[0].clock.timestamp(atTrueTime: log.sent[1 + k].trueTime + anchors.distance(0, responder) / 299_792_458)
            #expect(Int64(final.replyTimes[k].replyTimeTicks) == final.txTimestamp.ticks(since: rx))
        }
    }

    /// With ±20 ppm crystals the DS-TWR ToF each responder measures, and reports in the next block's
    /// Response, is the true flight time within 2 ticks (31 ps, 9 mm).
    @Test func doubleSidedTimeOfFlightDespitePPM() throws {
        var anchors = Self.cluster(clocks: Self.clocks)
        var log = AirLog()
        anchors.runBlock(0, atTrueTime: 1.0, log: &log)
        let measured = log.outcomes.compactMap { entry -> (UInt16, Int16)? in
            if case let .measuredTimeOfFlight(_, ticks) = entry.outcome { return (entry.address, ticks) }
            return nil
        }
        #expect(measured.count == 2)
        for (address, ticks) in measured {
            let truth = anchors.flightTicks(0, address == 0x0201 ? 1 : 2)
            #expect(abs(Double(ticks) - truth) <= 2, "\(address): \(ticks) vs \(truth)")
        }
        log = AirLog()
        anchors.runBlock(1, atTrueTime: 1.2, log: &log)
        for sent in log.sent {
            guard case let .response(response) = sent.frame.message else { continue }
            let truth = anchors.flightTicks(0, sent.address == 0x0201 ? 1 : 2)
            #expect(abs(Double(response.timeOfFlightTicks ?? 0) - truth) <= 2)
            #expect(abs(truth - 2131.4) < 0.1 || abs(truth - 1678.3) < 0.1)  // 10 m and √62 m ≈ 7.874 m
        }
    }

    /// Apple: "positive value means for every 1 clock cycle, the responder runs fewer cycles than
    /// initiator". Initiator +10 ppm, responder −10 ppm: the responder is slower, CFO ≈ +20 ppm.
    @Test func cfoSign() {
        let clocks = [AnchorClock(offsetTicks: 0, frequencyOffsetPPM: 10), AnchorClock(offsetTicks: 0, frequencyOffsetPPM: -10),
                      AnchorClock(offsetTicks: 0, frequencyOffsetPPM: 10.5)]
        var anchors = Self.cluster(clocks: clocks)
        var log = AirLog()
        anchors.runBlock(0, atTrueTime: 0.5, log: &log)
        let cfos = log.sent.compactMap { sent -> Int16? in
            if case let .response(r) = sent.frame.message { return r.cfoQ610 }
            return nil
        }
        // (1 − 0.99999/1.00001)·10⁶·1024 = 20 479.6 → 20 480; (1 − 1.0000105/1.00001)·10⁶·1024 = −512.0
        #expect(cfos == [20_480, -512])
        let beta = ClockFrequencyOffset.responderTicksPerInitiatorTick(q610: cfos[0])
        #expect(abs(beta - (1 - 10e-6) / (1 + 10e-6)) < 1e-9)
    }

    /// The responder's counter wraps between the Poll's RX and its Response: the reply time is
    /// still the 1-slot delay, not 2⁴⁰ off.
    @Test func replyTimeAcrossTheWrap() {
        let wrapAt = 0.3 + 0.010 + 0.0005  // true time when responder 0x0201's counter wraps: mid-slot 0 of round 1
        let offset = UInt64(1 << 40) - UInt64((wrapAt * UWBTimestamp.ticksPerSecond * (1 - 20e-6)).rounded())
        var clocks = Self.clocks
        clocks[1] = AnchorClock(offsetTicks: offset, frequencyOffsetPPM: -20)
        var anchors = Self.cluster(clocks: clocks)
        var log = AirLog()
        anchors.runBlock(0, atTrueTime: 0.3, log: &log)
        guard case let .response(response) = log.sent[1].frame.message else { Issue.record("no response"); return }
        #expect(log.sent[1].address == 0x0201)
        #expect(response.txTimestamp.ticks < 200_000_000)  // after the wrap
        #expect(response.replyTimeTicks > 63_897_600 && response.replyTimeTicks < 63_897_600 + 512 + 16_400)
        // The DS-TWR over the wrapped timestamps still gives the 10 m flight time.
        let tof = log.outcomes.compactMap { entry -> Int16? in
            if entry.address == 0x0201, case let .measuredTimeOfFlight(_, ticks) = entry.outcome { return ticks }
            return nil
        }
        #expect(tof.count == 1 && abs(Double(tof.first ?? 0) - anchors.flightTicks(0, 1)) <= 2)
    }

    /// The initiator did not hear 0x0202: the Final lists only 0x0201, and 0x0202 finds itself unlisted.
    @Test func finalListsOnlyTheRespondersHeard() {
        var anchors = Self.cluster(clocks: Self.clocks)
        var log = AirLog()
        anchors.runBlock(3, atTrueTime: 0.1, log: &log, drop: { sender, receiver in sender == 0x0202 && receiver == 0x0100 })
        guard case let .final(final) = log.sent.last?.frame.message else { Issue.record("no final"); return }
        #expect(final.replyTimes.map { $0.address } == [0x0201])
        #expect(log.outcomes.contains { $0.address == 0x0202 && $0.outcome == .ignored(.notListed) })
        #expect(log.outcomes.contains { $0.address == 0x0201 && $0.outcome == .ignored(.unexpectedMessage(.response)) })
    }

    /// SS-TWR: no Final; the next Poll carries the initiator's CFO-corrected ToF per responder.
    /// The clocks stay within the CFO field's ±32 ppm (±20 ppm anchors can differ by 40 ppm, which
    /// saturates the field and would bias SS-TWR by 8 ppm of the reply time).
    @Test func singleSidedToFInThePoll() {
        let clocks = [AnchorClock(offsetTicks: 77, frequencyOffsetPPM: 12), AnchorClock(offsetTicks: 1 << 39, frequencyOffsetPPM: -15),
                      AnchorClock(offsetTicks: 5, frequencyOffsetPPM: 3, driftPPMPerSecond: 0.01)]
        var anchors = Self.cluster(method: .singleSided, clocks: clocks)
        var log = AirLog()
        anchors.runBlock(0, atTrueTime: 1.0, log: &log)
        #expect(log.sent.map { $0.frame.message.type } == [.poll, .response, .response])
        log = AirLog()
        anchors.runBlock(1, atTrueTime: 1.2, log: &log)
        guard case let .poll(poll) = log.sent[0].frame.message else { Issue.record("no poll"); return }
        for (k, entry) in poll.responders.enumerated() {
            // CFO quantisation (0.001 ppm of a 1–2 ms reply ≈ 64–128 ticks · 10⁻³) costs < 1 tick.
            #expect(abs(Double(entry.timeOfFlightTicks ?? 0) - anchors.flightTicks(0, k + 1)) <= 3)
        }
    }

    @Test func ignoresOtherSessionsAndRounds() {
        var engine = AnchorEngine(configuration: AnchorEngineTests.cluster(clocks: Self.clocks)[1].engine.configuration)
        let poll = DTPoll(txTimestamp: UWBTimestamp(ticks: 1), finalFollows: true, responders: [DTManagementEntry(address: 0x0201)])
        let other = DTFrame(sourceAddress: 0x0100, sessionID: 0x2222_2222, roundIndex: 1, blockIndex: 0, message: .poll(poll))
        #expect(engine.receive(other.encode(), at: UWBTimestamp(ticks: 5), carrierFrequencyOffsetPPM: 0) == .ignored(.otherSession(0x2222_2222)))
        let round = DTFrame(sourceAddress: 0x0100, sessionID: 0x1111_1111, roundIndex: 4, blockIndex: 0, message: .poll(poll))
        #expect(engine.receive(round.encode(), at: UWBTimestamp(ticks: 5), carrierFrequencyOffsetPPM: 0) == .ignored(.roundNotAssigned(4)))
        #expect(engine.receive([1, 2, 3], at: UWBTimestamp(ticks: 5), carrierFrequencyOffsetPPM: 0)
            == .rejected(.truncated(field: .frameCheckSequence, offset: 1)))
        #expect(engine.nextTransmissionTime == nil)
    }
}
