import Foundation
import TestSupport
import Testing
@testable import ReflectorFirmware
@testable import ReflectorTools
@testable import ToolJSON

/// `reflector-emu plan`: the files it reads, the errors it gives, and what it prints.
struct PlanCommandTests {
    /// This test's files, removed when it ends.
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory("plan") }

    static let security = """
        {"cs_iv": "E10BC28A0BFDDFE93E7F5186E0CA0B3B", "cs_in": "9FF477C18673840D", "cs_pv": "C980DEDF9882ED4464A674967868F143"}
        """

    func write(_ text: String) throws -> String { try dir.write(text, name: "plan-\(UUID().uuidString).json") }

    static func config(_ extra: String = "") -> String {
        "{\"main_mode\": 2, \"channel_map\": \"000000000000001FFFFC\", \"subevent_len_us\": 100000" + extra + "}"
    }

    /// The 19-channel map of the spec's cr1 sample: the JSON plan carries the sample shuffles and access addresses.
    @Test func jsonPlanOfNineteenChannels() throws {
        let out = try PlanCommand.run(["--config", try write(Self.config()), "--security", try write(Self.security), "--json"]).output
        let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: Any]
        let procedures = object["procedures"] as! [[String: Any]]
        #expect(procedures.count == 1)
        #expect(procedures[0]["procedure_counter"] as? Int == 0)
        let steps = procedures[0]["steps"] as! [[String: Any]]
        #expect(steps.map { $0["channel"] as! Int } == [11, 7, 14, 6, 12, 5, 10, 3, 2, 18, 17, 16, 8, 11, 7, 19, 4, 13, 20, 9, 15, 14])
        #expect(steps[0]["initiator_aa"] as? String == "6C376AB8")
        #expect(steps[0]["reflector_aa"] as? String == "F079BC3A")
        #expect(steps[0]["mode"] as? Int == 0)
        #expect(steps[3]["mode"] as? Int == 2)
        #expect(steps[3]["tone_extension"] is String)
        #expect(steps[3]["initiator_aa"] == nil)
        #expect(steps[1]["start_us"] as? Int == steps[0]["duration_us"] as? Int)
    }

    /// Mode 3 with a sounding RTT: steps with access addresses, tones and sounding markers all
    /// at once, and the fields in the order the plan JSON always had.
    @Test func jsonPlanOfMode3WithSoundingMarkers() throws {
        let config = try write("{\"main_mode\": 3, \"sub_mode\": 2, \"rtt_type\": \"sounding_32\", \"channel_map\": \"000000000000001FFFFC\", \"subevent_len_us\": 100000}")
        let out = try PlanCommand.run(["--config", config, "--security", try write(Self.security), "--json", "--procedures", "2"]).output
        #expect(out.hasSuffix("}]}\n") && out.filter { $0 == "\n" }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let procedures = try #require(object["procedures"] as? [[String: Any]])
        #expect(procedures.map { $0["procedure_counter"] as? Int } == [0, 1])
        let steps = try #require(procedures[0]["steps"] as? [[String: Any]])
        let mode3 = try #require(steps.first { $0["mode"] as? Int == 3 })
        for key in ["step", "subevent", "kind", "channel", "initiator_aa", "reflector_aa", "antenna_permutation_index", "tone_extension", "marker_positions", "start_us", "duration_us"] {
            #expect(mode3[key] != nil, "\(key)")
        }
        let line = try #require(out.components(separatedBy: "{\"step\": ").first { $0.contains("\"mode\": 3,") })
        #expect(line.range(of: #"^\d+, "subevent": \d+, "kind": "main", "mode": 3, "channel": \d+, "initiator_aa": "[0-9A-F]{8}", "reflector_aa": "[0-9A-F]{8}", "antenna_permutation_index": \d+, "tone_extension": "[a-z]+", "marker_positions": \[\d+(, \d+)?\], "start_us": \d+, "duration_us": \d+\}"#, options: .regularExpression) != nil, "\(line)")
    }

    @Test func tableHasARowPerStep() throws {
        let out = try PlanCommand.run(["--config", try write(Self.config()), "--security", try write(Self.security), "--procedures", "2"]).output
        #expect(out.contains("procedure 0: 22 steps in 1 subevents"))
        #expect(out.contains("procedure 1: 22 steps"))
        #expect(out.split(separator: "\n").filter { $0.first?.isNumber == true }.count == 44)
    }

    @Test(arguments: [
        ("{\"main_mode\": 4}", "key \"main_mode\" is 4; allowed: an integer from 1 to 3"),
        ("{}", "key \"main_mode\" is missing; allowed: an integer from 1 to 3"),
        ("{\"main_mode\": 2, \"sub_mode\": 2}", "key \"sub_mode\" is 2; allowed with main_mode 2: 1, 3, null"),
        ("{\"main_mode\": 1, \"sub_mode\": 1}", "key \"sub_mode\" is 1; allowed with main_mode 1: null"),
        ("{\"main_mode\": 2, \"cs_sync_phy\": \"3M\"}", "key \"cs_sync_phy\" is \"3M\"; allowed: one of \"1M\", \"2M\", \"2M2BT\""),
        ("{\"main_mode\": 2, \"t_fcs_us\": 99}", "key \"t_fcs_us\" is 99; allowed: one of 15, 20, 30, 40, 50, 60, 80, 100, 120, 150"),
        ("{\"main_mode\": 2, \"channel_map\": \"FFFFFFFFFFFFFFFFFFFF\"}", "key \"channel_map\" enables channels 0, 1, 23, 24, 25, 77, 78, 79, which CS never uses"),
        ("{\"main_mode\": 2, \"channel_map\": \"00000000000000007FFC\"}", "key \"channel_map\" leaves 13 usable channels; allowed: at least 15"),
        ("{\"main_mode\": 2, \"channel_map\": \"1FFF\"}", "key \"channel_map\" is \"1FFF\"; allowed: a string of 20 hexadecimal digits"),
        ("{\"main_mode\": 2, \"inline_pct\": 1}", "key \"inline_pct\" is 1; allowed: true or false"),
        ("{\"main_mode\": 2, \"min_main_mode_steps\": 6, \"max_main_mode_steps\": 3}", "key \"max_main_mode_steps\" is 3; allowed: at least min_main_mode_steps (6)"),
        ("{\"main_mode\": 2, \"ch3c_jump\": 9, \"channel_selection\": \"3c\"}", "key \"ch3c_jump\" is 9; allowed: an integer from 2 to 8"),
        ("{\"main_mode\": 2, \"subevent_len_us\": 1250}", "key \"subevent_len_us\" is 1250; allowed: at least 1914"),
        ("{\"main_mode\": 2, \"max_procedure_len_us\": 1000}", "key \"max_procedure_len_us\" is 1000; allowed: at least subevent_len_us (40000)"),
        ("[1, 2]", "the top level must be a JSON object, found an array"),
        ("{\"main_mode\": ", "not valid JSON"),
    ])
    func badConfigGivesOneLineError(text: String, message: String) throws {
        let path = try write(text)
        let security = try write(Self.security)
        do {
            _ = try PlanCommand.run(["--config", path, "--security", security])
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.hasPrefix(path + ": "))
            #expect(error.description.contains(message), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func badSecurityAndArguments() throws {
        let (config, security) = (try write(Self.config()), try write("{\"cs_iv\": \"00\"}"))
        #expect(throws: ToolError.self) { try PlanCommand.run(["--config", config, "--security", security]) }
        #expect(throws: ToolError.usage("plan: --security SECURITY.json is required")) { try PlanCommand.run(["--config", "x"]) }
        #expect(throws: ToolError.usage("--procedures must be an integer from 1 to 65536, found 'zero'")) {
            try PlanCommand.run(["--config", "x", "--security", "y", "--procedures", "zero"])
        }
        #expect(throws: ToolError.badFile("/nonexistent/c.json: cannot read the file")) {
            try PlanCommand.run(["--config", "/nonexistent/c.json", "--security", "y"])
        }
    }

    /// The shipped example files parse and plan.
    @Test func shippedExamplesPlan() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let out = try PlanCommand.run(["--config", root.appendingPathComponent("Examples/plan-config.json").path,
                                       "--security", root.appendingPathComponent("Examples/security-sample.json").path, "--json"]).output
        #expect(out.hasPrefix("{\"procedures\": [{\"procedure_counter\": 0, \"steps\": [{\"step\": 0, \"subevent\": 0, \"kind\": \"mode0\", \"mode\": 0, \"channel\": 11, \"initiator_aa\": \"6C376AB8\", \"reflector_aa\": \"F079BC3A\""))
    }
}

/// The executable itself: exit statuses and where messages go.
struct PlanExecutableTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory("plan-tool") }

    func write(_ text: String) throws -> String { try dir.write(text, name: "plan-\(UUID().uuidString).json") }

    @Test func badFileExitsWithStatus2AndOneLine() throws {
        let r = try ToolProcess.run(["plan", "--config", try write("{\"main_mode\": 7}"), "--security", try write(PlanCommandTests.security)])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("reflector-emu: "))
        #expect(r.stderr.contains("key \"main_mode\" is 7; allowed: an integer from 1 to 3"))
        #expect(r.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func goodFilesExitZero() throws {
        let r = try ToolProcess.run(["plan", "--config", try write(PlanCommandTests.config()), "--security", try write(PlanCommandTests.security), "--json"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("{\"procedures\": "))
        #expect(r.stderr.isEmpty)
    }

    @Test func unknownCommandExits2() throws {
        let r = try ToolProcess.run(["frobnicate"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("unknown command 'frobnicate'"))
    }
}
