import BLEHost
import RadioWorld
import RangingEstimation
import ReflectorFirmware
import Testing
@testable import VirtualBoard

/// A served board whose controller faults (Hardware Error, then as after power-on): this
/// project's hosts reset it and set it up again, the phone reconnects and encrypts with the
/// bond it made (no second pairing), and ranging goes on; the procedure in flight is reported
/// lost, not invented. In process, on virtual time.
@Suite struct ControllerFaultRecoveryTests {
    /// The accessory on the served board, the emulated phone pairing with it.
    @Test func theAccessoryRecoversFromAHardwareError() {
        var options = VirtualBoard.Options(role: .reflector, scenario: AirScenario(seed: 7, geometry: AirGeometry(distance: 2.0), snrDB: 30))
        options.pairs = true
        var board = VirtualBoard(options)
        var host = AccessoryAgainstEmulatedPhoneTests.accessory()
        let first = AccessoryAgainstEmulatedPhoneTests.run(&board, &host) { _, b in AccessoryAgainstEmulatedPhoneTests.distances(b).count >= 3 }
        #expect(first.outputs.filter { if case .paired = $0 { true } else { false } }.count == 1)
        board.hardwareFault(code: 0x5A)
        let before = AccessoryAgainstEmulatedPhoneTests.distances(board).count
        let again = AccessoryAgainstEmulatedPhoneTests.run(&board, &host, from: first.now) { _, b in
            AccessoryAgainstEmulatedPhoneTests.distances(b).count >= before + 3
        }
        #expect(again.outputs.first == .controllerRestarted(.hardwareError(code: 0x5A)), "\(again.outputs.prefix(3))")
        #expect(again.outputs.contains(.advertising))
        #expect(again.outputs.contains(.encrypted(bond: host.bonds.first)), "\(again.outputs)")
        #expect(!again.outputs.contains { if case .paired = $0 { true } else { false } })
        // Ranging again within 5 s of the fault (the phone's 2 s supervision timeout is most of it).
        let resumed = AccessoryAgainstEmulatedPhoneTests.distances(board).count >= before + 3
        #expect(resumed && again.now - first.now < 5_000_000, "\(again.now - first.now) µs")
        #expect(AccessoryAgainstEmulatedPhoneTests.distances(board).allSatisfy { abs($0 - 2.0) < 0.05 })
    }

    /// The phone (the host `range` runs) on a served initiator, the emulated accessory on the
    /// other side: after the fault it sets the board up, finds the accessory again and encrypts
    /// with the bond it made pairing.
    @Test func thePhoneRecoversFromAHardwareError() {
        var board = VirtualBoard(.init(role: .initiator, scenario: AirScenario(seed: 8, geometry: AirGeometry(distance: 3.0), snrDB: 30)))
        let defaults = (PhoneDefaults.configuration(), PhoneDefaults.parameters())
        var setup = InitiatorHost.Setup(connectionHandle: 0, configuration: defaults.0, parameters: defaults.1, requireIOSCompliance: false,
                                        connect: .init(scanningFor: AdvertiserFilter(serviceUUID16: 0x185B), longTermKey: []))
        setup.waitsForRangingDataClient = true
        var phone = PhoneHost(setup: setup, random: .repeating(0x21))
        var outputs: [PhoneHost.Output] = []
        var now: UInt64 = 0
        var faultAt: UInt64?
        func procedures() -> Int { outputs.filter { if case .host(.procedure) = $0 { true } else { false } }.count }
        while now < 30_000_000, procedures() < 6 {
            let t = Double(now) / 1e6
            outputs += phone.tick(now: t)
            if let c = phone.nextCommand() { board.receive(c) }
            for a in phone.nextACL() { board.receive(a) }
            for p in board.poll(now: now) { outputs += phone.receive(p, now: t) }
            if faultAt == nil, procedures() >= 3 {
                faultAt = now
                board.hardwareFault(code: 0x01)
            }
            now += 1_000
        }
        #expect(procedures() >= 6, "\(outputs.suffix(5))")
        #expect(outputs.contains(.controllerRestarted(.hardwareError(code: 0x01))))
        #expect(outputs.filter { if case .paired = $0 { true } else { false } }.count == 1)
        #expect(outputs.contains(.encryptedWithBond))
        if let at = faultAt { #expect(now - at < 5_000_000, "\(now - at) µs") }
    }
}
