@testable import BLEHost
import Foundation
import HCITransport
@testable import ReflectorFirmware
@testable import ReflectorTools
import Testing
@testable import VirtualBoard

/// The check against controllers in process: this project's reflector passes; controllers that
/// miss a requirement fail with the evidence.
struct CheckReportTests {
    /// Runs the probe against a board controller with these capabilities and version.
    static func probe(_ caps: CSCapabilities = .projectReflector(), version: UInt8 = 0x11) -> CheckReport {
        var c = BoardController(capabilities: caps, address: 1, seed: 1)
        c.cs = CSController(capabilities: caps, hciVersion: version, address: 1, connection: LinkConnection(handle: 0xFFFF, isCentral: false), seed: 1)
        var probe = ControllerProbe()
        while probe.outcome == nil, let command = probe.nextCommand() {
            c.handleCommand(command)
            for e in c.takeEvents() { probe.handleEvent(e.encode()) }
        }
        guard case .done(let f)? = probe.outcome else {
            Issue.record("\(String(describing: probe.outcome))")
            return CheckReport(.init())
        }
        return CheckReport(f)
    }

    @Test func projectReflectorIsCompatible() throws {
        let r = Self.probe()
        #expect(r.compatible, "\(r.text)")
        #expect(r.findings.capabilitiesLayout == .v2)
        #expect(r.requirements.map(\.name) == ["Bluetooth 6.3 or later", "Channel Sounding", "CS reflector role", "Mode 0 and mode 2 (phase-based ranging)",
                                               "Inline PCT transfer as reflector", "T_FCS of 100 us or more"])
        #expect(r.text.contains("[pass] Bluetooth 6.3 or later: HCI_Version 0x11 (Bluetooth 6.3)"))
        let json = try JSONSerialization.jsonObject(with: Data(CommandTesting.json(r.json).utf8)) as! [String: Any]
        #expect(json["compatible"] as? Bool == true)
        #expect((json["requirements"] as? [[String: Any]])?.count == 6)
        #expect((json["controller"] as? [String: Any])?["hci_version"] as? Int == 0x11)
    }

    @Test func missingRequirementsFailWithEvidence() {
        var noIPT = CSCapabilities.projectReflector()
        noIPT.subfeatures.remove(.inlinePCTReflector)
        let a = Self.probe(noIPT)
        #expect(!a.compatible)
        #expect(a.requirements.first { $0.name == "Inline PCT transfer as reflector" }?.pass == false)
        let b = Self.probe(.projectReflector(), version: 0x0E)
        #expect(b.requirements.first?.pass == false && b.requirements.first?.detail == "HCI_Version 0x0E (Bluetooth 6.0)")
        var initiatorOnly = CSCapabilities.projectReflector()
        initiatorOnly.roles = [.initiator]
        #expect(Self.probe(initiatorOnly).requirements.first { $0.name == "CS reflector role" }?.pass == false)
    }
}
