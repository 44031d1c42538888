@testable import BLEHost
@testable import EmulatorMath
import Foundation
@testable import PhoneEmulation
@testable import RadioWorld
@testable import RangingEstimation
@testable import ReflectorFirmware
import Testing

/// The whole loopback in process: both hosts, both controllers, LL, RAS, the air.
struct LoopbackLinkTests {
    /// The round-trip phase slope of a ToneSet (averaged phase difference over 1 MHz neighbours),
    /// as a self-contained check of the data path (the estimators are tested on their own).
    static func slopeDistance(_ tones: ToneSet) -> Double? {
        var s = Complex.zero
        for path in tones.paths {
            var byChannel = [UInt8: Complex]()
            for t in path where t.isGood { byChannel[t.channel, default: .zero] += t.value }
            for (ch, z) in byChannel { if let prev = byChannel[ch &- 1] { s += z * prev.conjugate } }
        }
        guard s.magnitude > 0 else { return nil }
        var d = -299_792_458.0 * s.phase / (4 * Double.pi * 1e6)
        if d < 0 { d += 299_792_458.0 / 2e6 }
        return d
    }

    static func procedures(_ outputs: [InitiatorHost.Output]) -> [(ProcedureResults, [StepData?]?)] {
        outputs.compactMap { if case let .procedure(p, r) = $0 { return (p, r) } else { return nil } }
    }

    @Test(arguments: [true, false])
    func rangesThroughEveryLayer(inlinePCT: Bool) throws {
        var setup = LoopbackSetup(scenario: AirScenario(seed: 7, geometry: AirGeometry(distance: 3.0), snrDB: 40), inlinePCT: inlinePCT)
        setup.recordHCI = true
        var link = setup.makeLink()
        let setupOutputs = link.settle()
        #expect(setupOutputs.contains { if case .enabled = $0 { return true } else { return false } }, "\(setupOutputs)")
        #expect(link.initiatorHost.remoteVersion == 0x11)
        #expect(link.initiatorHost.agreedConfiguration?.timing.tFCS == 100)
        #expect(link.llPDUCount >= 10)
        var distances: [Double] = []
        for _ in 0..<4 {
            let outputs = link.runProcedure() ?? []
            let procs = Self.procedures(outputs)
            #expect(procs.count == 1)
            guard let (p, reflector) = procs.first else { continue }
            #expect((reflector == nil) == inlinePCT)
            let tones = ToneSetBuilder.tones(initiator: p.steps, reflector: reflector, antennaPaths: p.antennaPaths)
            #expect(tones.paths[0].count == 72)
            distances.append(try #require(Self.slopeDistance(tones)))
        }
        #expect(distances.allSatisfy { abs($0 - 3.0) < 0.05 }, "\(distances)")
        #expect(link.planMismatches == 0)
        // Procedure counters count up; the capture holds the initiator's HCI traffic.
        #expect(link.capture!.count > 20)
        let stopped = link.stop()
        #expect(stopped.contains(.disabled))
        #expect(link.runProcedure() == nil)
    }

    /// The same seed gives the same run, byte for byte.
    /// The link drops when a procedure goes unanswered (here the phone's capabilities request
    /// is lost on the air): after 40 s the phone's controller gives up with LL Response Timeout,
    /// the accessory's hears nothing more (Connection Timeout), both hosts are told, and no
    /// procedure runs again: the loopback reports the loss instead of waiting for ever.
    @Test func unansweredProcedureDropsTheLink() throws {
        var link = LoopbackSetup().makeLink()
        _ = link.settle()
        #expect(link.runProcedure() != nil)
        link.initiatorController.handleCommand(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x40).packet.encode())
        _ = link.initiatorController.takePDUs()
        _ = link.initiatorController.takeEvents()
        let asked = link.initiatorController.now  // the controller clock when the request went out
        link.advance(to: asked + LLProcedureState.responseTimeout - 1)
        #expect(link.linkLoss == nil)
        link.advance(to: asked + LLProcedureState.responseTimeout)
        #expect(link.linkLoss == .llResponseTimeout)
        #expect(link.reflectorController.connectionLoss == .connectionTimeout)
        let outputs = link.settle()
        #expect(outputs == [.failed(.linkLost(.llResponseTimeout))])
        #expect(link.runProcedure() == nil)
        #expect(link.initiatorHost.restart(parameters: link.initiatorHost.setup.parameters) == false)
    }

    @Test func deterministic() throws {
        func run() -> [[UInt8]] {
            var link = LoopbackSetup(scenario: AirScenario(seed: 11, geometry: AirGeometry(distance: 5.0), snrDB: 20)).makeLink()
            _ = link.settle()
            var out: [[UInt8]] = []
            for _ in 0..<2 {
                for case let .procedure(p, _) in link.runProcedure() ?? [] { out.append(p.steps.flatMap { $0.data.encode() }) }
            }
            return out
        }
        #expect(run() == run())
    }

    /// iOS's requirements: an accessory without inline PCT, or older than 6.3, is refused.
    @Test func refusesNonCompliantAccessories() {
        var noIPT = LoopbackSetup()
        noIPT.reflectorCapabilities.subfeatures.remove(.inlinePCTReflector)
        var link = noIPT.makeLink()
        let outputs = link.settle()
        #expect(outputs.contains(.failed(.accessoryNotSupported([.inlinePCT]))), "\(outputs)")
        var old = LoopbackSetup()
        old.reflectorVersion = 0x0E
        var link2 = old.makeLink()
        #expect(link2.settle().contains(.failed(.accessoryNotSupported([.bluetooth63]))))
    }

    /// Bad parameters are refused with the spec's error codes, and the host reports which command.
    @Test func refusesUnsupportedConfigurations() {
        var mode3 = LoopbackSetup()
        mode3.configuration.mainMode = .mode3
        mode3.reflectorCapabilities.optionalModes = []
        var link = mode3.makeLink()
        #expect(link.settle().contains(.failed(.commandFailed(command: "LE CS Create Config", status: .unsupportedRemoteFeature))))
        var shortProcedure = LoopbackSetup()
        shortProcedure.parameters.maxProcedureLength = 1  // 625 µs: shorter than one subevent
        var link2 = shortProcedure.makeLink()
        #expect(link2.settle().contains(.failed(.commandFailed(command: "LE CS Set Procedure Parameters", status: .unsupportedFeatureOrParameterValue))))
    }
}
