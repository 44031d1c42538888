import BLEHost
import Foundation
import ReflectorFirmware
import ToolJSON

/// The answer to "will an iPhone range with this board?": each of iOS's accessory requirements
/// (WWDC26 session 369) as pass or fail with the evidence the controller gave, plus advisories
/// that matter for accuracy. Built from a `ControllerProbe`'s findings; printed as text or JSON.
public struct CheckReport: Equatable {
    public struct Item: Equatable {
        public var name: String
        public var pass: Bool
        public var detail: String
    }

    public var findings: ControllerProbe.Findings
    public var requirements: [Item]
    public var advisories: [Item]

    public var compatible: Bool { requirements.allSatisfy(\.pass) }

    public init(_ f: ControllerProbe.Findings) {
        findings = f
        let version = f.hciVersion ?? 0
        var req: [Item] = [
            Item(name: "Bluetooth 6.3 or later", pass: version >= IOSComplianceReport.bluetoothVersion63,
                 detail: "HCI_Version 0x\(Self.hex(version, 2)) (\(Self.versionName(version)))"),
            Item(name: "Channel Sounding", pass: f.supportsChannelSounding && f.capabilities != nil,
                 detail: f.capabilities == nil
                    ? (f.supportsChannelSounding ? "LE feature bit 46 set, but the CS capabilities could not be read" : "LE feature bit 46 (Channel Sounding) not set")
                    : "LE feature bit 46 set; capabilities read with the \(f.capabilitiesLayout == .v1 ? "v1 (Core 6.0)" : "v2 (Core 6.3)") command"),
        ]
        if let c = f.capabilities {
            let ios = IOSComplianceReport(capabilities: c, bluetoothVersion: version)
            req.append(Item(name: "CS reflector role", pass: !ios.unmet.contains(.reflectorRole),
                            detail: "Roles_Supported: \(c.supports(CSRole.initiator) ? "initiator, " : "")\(c.supports(CSRole.reflector) ? "reflector" : "no reflector")"))
            req.append(Item(name: "Mode 0 and mode 2 (phase-based ranging)", pass: !ios.unmet.contains(.phaseBasedRangingModes),
                            detail: "mandatory for every CS controller; mode 3 \(c.supports(CSMode.mode3) ? "also supported" : "not supported")"))
            req.append(Item(name: "Inline PCT transfer as reflector", pass: !ios.unmet.contains(.inlinePCT),
                            detail: c.supportsInlinePCT ? "Subfeatures_Supported bit 4 set" : "Subfeatures_Supported bit 4 (CS with IPT in the reflector) not set"
                                + (f.capabilitiesLayout == .v1 ? "; the controller does not list the Core 6.3 v2 capabilities command" : "")))
            let fcs = c.tFCSTimes.microseconds.map(String.init).joined(separator: ", ")
            req.append(Item(name: "T_FCS of 100 us or more", pass: !ios.unmet.contains(.tFCSAtLeast100us),
                            detail: "T_FCS times supported: \(fcs) us" + (ios.tFCSMetOnlyByMandatory150 ? " (only the mandatory 150 us reaches 100 us)" : "")))
            advisories = [
                Item(name: "Antenna paths", pass: c.maxAntennaPaths > 1 || c.numAntennas > 1,
                     detail: "\(c.numAntennas) antenna\(c.numAntennas == 1 ? "" : "s"), up to \(c.maxAntennaPaths) antenna path\(c.maxAntennaPaths == 1 ? "" : "s"); more paths average out multipath"),
                Item(name: "T_PM", pass: c.tPMTimes.contains(10) || c.tPMTimes.contains(20),
                     detail: "T_PM times supported: \(c.tPMTimes.microseconds.map(String.init).joined(separator: ", ")) us; shorter tones fit more steps in a subevent"),
                Item(name: "CS_SYNC PHYs", pass: true,
                     detail: "1M" + (c.syncPHYs.supports(.le2M) ? ", 2M" : "") + (c.syncPHYs.supports(.le2M2BT) ? ", 2M 2BT" : "")),
                Item(name: "Inline PCT timing", pass: c.tIP2IPTTimes.bits != 0 || c.tIP2IPTTimes.contains(145),
                     detail: "T_IP2 under IPT: \(c.tIP2IPTTimes.microseconds.map(String.init).joined(separator: ", ")) us; T_SW under IPT: \(c.tSWIPT.microseconds) us"),
            ]
        } else {
            for name in ["CS reflector role", "Mode 0 and mode 2 (phase-based ranging)", "Inline PCT transfer as reflector", "T_FCS of 100 us or more"] {
                req.append(Item(name: name, pass: false, detail: "unknown: no CS capabilities"))
            }
            advisories = []
        }
        requirements = req
    }

    static func hex(_ v: some BinaryInteger, _ digits: Int) -> String { HexText.digits(v, digits) }

    /// Assigned Numbers for HCI_Version (0x11 for 6.3 follows the sequence [U]).
    static func versionName(_ v: UInt8) -> String {
        let names: [UInt8: String] = [0x06: "4.0", 0x07: "4.1", 0x08: "4.2", 0x09: "5.0", 0x0A: "5.1", 0x0B: "5.2", 0x0C: "5.3",
                                      0x0D: "5.4", 0x0E: "6.0", 0x0F: "6.1", 0x10: "6.2", 0x11: "6.3"]
        return names[v].map { "Bluetooth \($0)" } ?? (v > 0x11 ? "later than 6.3" : "before 4.0")
    }

    public var text: String {
        var out = "controller: HCI_Version 0x\(Self.hex(findings.hciVersion ?? 0, 2)) (\(Self.versionName(findings.hciVersion ?? 0))), "
            + "company 0x\(Self.hex(findings.companyIdentifier ?? 0, 4)), LE features 0x\(Self.hex(findings.leFeatures ?? 0, 16))\n"
        out += "iOS requirements:\n"
        for r in requirements { out += "  [\(r.pass ? "pass" : "FAIL")] \(r.name): \(r.detail)\n" }
        if !advisories.isEmpty {
            out += "advisories:\n"
            for a in advisories { out += "  [\(a.pass ? "ok" : "note")] \(a.name): \(a.detail)\n" }
        }
        out += compatible ? "compatible: an iPhone can range with this board\n" : "not compatible: an iPhone will not range with this board (see FAIL above)\n"
        return out
    }

    /// `{"controller": {...}, "requirements": [...], "advisories": [...], "compatible": ...}`.
    public func json(_ j: inout JSONWriter) {
        func items(_ list: [Item], _ j: inout JSONWriter) {
            j.beginArray()
            for i in list {
                j.object { j in
                    j.field("name", i.name)
                    j.field("pass", i.pass)
                    j.field("detail", i.detail)
                }
            }
            j.endArray()
        }
        j.object { j in
            j.field("controller", object: { j in
                j.field("hci_version", findings.hciVersion)
                j.field("hci_subversion", findings.hciSubversion)
                j.field("company_id", findings.companyIdentifier)
                j.field("le_features", Self.hex(findings.leFeatures ?? 0, 16))
                j.field("cs_capabilities", findings.capabilities.map { Self.hexBytes($0.hciBytes(layout: findings.capabilitiesLayout ?? .v1)) })
            })
            j.key("requirements")
            items(requirements, &j)
            j.key("advisories")
            items(advisories, &j)
            j.field("compatible", compatible)
        }
    }

    static func hexBytes(_ b: [UInt8]) -> String { HexText.octets(b) }
}
