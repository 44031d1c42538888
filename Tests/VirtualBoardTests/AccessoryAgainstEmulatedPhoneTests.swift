import BLEHost
import PhoneEmulation
import RadioWorld
import RangingEstimation
import ReflectorFirmware
import Testing
import VirtualBoard

/// This project's accessory host (`AccessoryHost`) driving a served board, against the emulated
/// phone of `serve --pair` in the same air, in process and on virtual time: the phone pairs
/// (Just Works), ranges with inline PCT within 5 cm of the air's 3 m; the phone goes out of
/// range, comes back, and encrypts with its bond: no new pairing, the accessory answers the key
/// request from the bond it kept. And the accessory showing a passkey the phone types: typed
/// right it pairs (authenticated) and ranges; typed wrong, Confirm Value Failed and no bond.
@Suite struct AccessoryAgainstEmulatedPhoneTests {
    static func accessory(passkey: Bool = false, onDemand: Bool = false) -> AccessoryHost {
        var c = AccessoryHost.Configuration(identity: .init(name: "reflector-emu", manufacturer: "m", model: "x", firmwareRevision: "1"),
                                            address: 0xC300_0000_0001, irk: Array(0..<16))
        c.ioCapability = passkey ? .displayOnly : .noInputNoOutput
        c.realTimeRAS = !onDemand
        // The accessory's passkey draw: 0x0001E240 = 123456.
        return AccessoryHost(configuration: c, random: RandomOctets { $0 = $0.count == 4 ? [0x40, 0xE2, 0x01, 0x00] : Array(repeating: 0x5A, count: $0.count) })
    }

    /// Runs both until `until` says so or 20 s of virtual time pass; the accessory's outputs.
    static func run(_ board: inout VirtualBoard, _ host: inout AccessoryHost, from start: UInt64 = 0, for limit: UInt64 = 20_000_000,
                    until done: ([AccessoryHost.Output], VirtualBoard) -> Bool) -> (outputs: [AccessoryHost.Output], now: UInt64) {
        var outputs: [AccessoryHost.Output] = []
        var now = start
        while now < start + limit, !done(outputs, board) {
            let t = Double(now) / 1e6
            outputs += host.tick(now: t)
            while let c = host.nextCommand() { board.receive(c); break }
            for acl in host.nextACL() { board.receive(acl) }
            for p in board.poll(now: now) {
                outputs += p.indicator == .aclData ? host.handleACL(p, now: t) : host.handleEvent(p, now: t)
            }
            now += 1_000
        }
        return (outputs, now)
    }

    static func distances(_ board: VirtualBoard) -> [Double] {
        board.phoneOutputs.compactMap {
            guard case let .procedure(p, r) = $0 else { return nil }
            return PhaseSlopeEstimator().estimate(ToneSetBuilder.tones(initiator: p.steps, reflector: r, antennaPaths: p.antennaPaths))?.distance
        }
    }

    @Test func thePhonePairsRangesAndReconnectsWithItsBond() {
        var options = VirtualBoard.Options(role: .reflector, scenario: AirScenario(seed: 3, geometry: AirGeometry(distance: 3.0), snrDB: 30))
        options.pairs = true
        var board = VirtualBoard(options)
        var host = Self.accessory()
        let first = Self.run(&board, &host) { _, b in Self.distances(b).count >= 2 }
        #expect(first.outputs.contains { if case .paired(let r) = $0 { r.method == .justWorks && r.bonded } else { false } }, "\(first.outputs)")
        #expect(host.bonds.count == 1 && host.bonds[0].peer == PairingAddress(0xC0FF_EE00_00B1, random: false))
        let d = Self.distances(board)
        #expect(d.count >= 2 && d.allSatisfy { abs($0 - 3.0) < 0.05 }, "\(d)")
        // Out of range: the link drops (supervision timeout); back in range, the phone finds the
        // accessory again and encrypts with its bond.
        board.peerIsAbsent = true
        let gone = Self.run(&board, &host, from: first.now) { o, _ in o.contains { if case .disconnected = $0 { true } else { false } } }
        #expect(gone.outputs.contains(.disconnected(.connectionTimeout)))
        board.peerIsAbsent = false
        let before = Self.distances(board).count
        let again = Self.run(&board, &host, from: gone.now) { _, b in Self.distances(b).count >= before + 2 }
        #expect(again.outputs.contains(.encrypted(bond: host.bonds[0])), "\(again.outputs)")
        #expect(!again.outputs.contains { if case .paired = $0 { true } else { false } })
        #expect(Self.distances(board).count >= before + 2)
    }

    /// On-demand RAS through the accessory host, past the 5 s ACK timeout and past 60
    /// procedures: every procedure's data is fetched and acknowledged, none reported lost (the
    /// Ranging Service's ACK timer runs on the host's clock, not from time 0).
    @Test func onDemandRangingDataIsNeverReportedLost() {
        var options = VirtualBoard.Options(role: .reflector, scenario: AirScenario(seed: 5, geometry: AirGeometry(distance: 2.0), snrDB: 30))
        options.pairs = true
        options.inlinePCT = false
        var board = VirtualBoard(options)
        var host = Self.accessory(onDemand: true)
        let run = Self.run(&board, &host, for: 60_000_000) { _, b in Self.distances(b).count >= 65 }
        #expect(board.phoneEvents.contains(.rangingData(.onDemand)), "\(board.phoneEvents)")
        let lost = board.phoneEvents.filter { if case .rangingDataLost = $0 { true } else { false } }
        #expect(lost.isEmpty, "\(lost)")
        let d = Self.distances(board)
        #expect(d.count >= 65 && d.allSatisfy { abs($0 - 2.0) < 0.1 }, "\(d.count) \(board.phoneOutputs.suffix(3)) \(run.outputs.suffix(5))")
        #expect(run.now > 5_000_000)
    }

    @Test func aPasskeyTheAccessoryShowsIsTypedOnThePhone() {
        for (typed, succeeds) in [(UInt32(123_456), true), (654_321, false)] {
            var options = VirtualBoard.Options(role: .reflector, scenario: AirScenario(seed: 4, geometry: AirGeometry(distance: 2.0), snrDB: 30))
            options.pairs = true
            options.passkey = typed
            var board = VirtualBoard(options)
            var host = Self.accessory(passkey: true)
            let run = Self.run(&board, &host) { o, b in
                o.contains { if case .pairingFailed = $0 { true } else { false } } || Self.distances(b).count >= 1
            }
            #expect(run.outputs.contains(.displayPasskey(123_456)))
            if succeeds {
                #expect(run.outputs.contains { if case .paired(let r) = $0 { r.method == .passkey(initiatorDisplays: false, responderDisplays: true) } else { false } })
                #expect(Self.distances(board).allSatisfy { abs($0 - 2.0) < 0.05 })
            } else {
                #expect(run.outputs.contains(.pairingFailed(.confirmValueFailed, byPeer: false)), "\(run.outputs)")
                #expect(host.bonds.isEmpty)
            }
        }
    }
}
