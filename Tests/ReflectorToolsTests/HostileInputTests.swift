import Foundation
@testable import ReflectorTools
@testable import ToolJSON
@testable import ToolFiles
@testable import Captures
import TestSupport
import Testing

/// What a fuzz campaign found, kept as regression tests: JSON files that trapped the tool
/// (whole numbers beyond Int, in more than one reader and key), took tens of seconds (nested
/// arrays: the old value type tried every type at every level) or gave a misleading message
/// (1e400, bad UTF-8), and a capture read whole before its header. Each input must give one
/// clear line, naming the key or the byte offset, and never trap; the suite's time limit
/// catches a hang (no test measures wall-clock time).
@Suite(.timeLimit(.minutes(1)))
struct HostileInputTests {
    static let twoTo63 = "9223372036854775808"
    static let twoTo64 = "18446744073709551616"

    /// The one-line message a reader gives for `text`, or nil when it accepts it.
    static func message(_ read: (Data) throws(ToolError) -> Void, _ text: String) -> String? {
        message(read, Data(text.utf8))
    }

    static func message(_ read: (Data) throws(ToolError) -> Void, _ data: Data) -> String? {
        do { try read(data) } catch { return error.description }
        return nil
    }

    static func config(_ d: Data) throws(ToolError) { _ = try PlanConfigFile.parse(d) }
    static func security(_ d: Data) throws(ToolError) { _ = try SecurityFile.parse(d) }
    static func deployment(_ d: Data) throws(ToolError) { _ = try DeploymentFile.parse(d) }
    static func scenario(_ d: Data) throws(ToolError) { _ = try ScenarioFile.parse(d) }
    static func board(_ d: Data) throws(ToolError) { _ = try BoardProfile.parse(d) }
    static let readerNames = ["plan config", "security", "deployment", "scenario", "board profile"]
    static func reader(_ k: Int) -> (Data) throws(ToolError) -> Void {
        switch k {
        case 0: config
        case 1: security
        case 2: deployment
        case 3: scenario
        default: board
        }
    }

    static let anchors = #"[{"address": "0A01", "position_m": [0, 0, 2], "initiator": true}, {"address": "0A02", "position_m": [5, 0, 2]}, {"address": "0A03", "position_m": [0, 5, 2]}, {"address": "0A04", "position_m": [5, 5, 1]}]"#
    static let boardStart = #"{"name": "b", "bluetooth_version": "6.3", "antennas": 1"#

    // MARK: Whole numbers beyond the integer types, per reader and key type

    @Test func integersBeyondTheirTypeAreKeyErrors() {
        #expect(Self.message(Self.config, "{\"main_mode\": \(Self.twoTo63)}") == "key \"main_mode\" is \(Self.twoTo63); allowed: an integer from 1 to 3")
        #expect(Self.message(Self.config, "{\"main_mode\": 2, \"t_fcs_us\": 1e300}") == "key \"t_fcs_us\" is 1e300; allowed: one of 15, 20, 30, 40, 50, 60, 80, 100, 120, 150")
        #expect(Self.message(Self.config, "{\"main_mode\": 2, \"sub_mode\": \(Self.twoTo64)}") == "key \"sub_mode\" is \(Self.twoTo64); allowed with main_mode 2: 1, 3, null")
        #expect(Self.message(Self.config, "{\"main_mode\": 2, \"rtt_type\": -\(Self.twoTo63)0}")?.hasPrefix("key \"rtt_type\" is -\(Self.twoTo63)0; allowed: 0 to 6") == true)
        #expect(Self.message(Self.config, "{\"main_mode\": 2, \"subevent_len_us\": 1e20}") == "key \"subevent_len_us\" is 100000000000000000000; allowed: an integer from 1250 to 4000000")
        #expect(Self.message(Self.deployment, "{\"anchors\": \(Self.anchors), \"seed\": \(Self.twoTo64)}") == "key \"seed\" is \(Self.twoTo64); allowed: an integer from 0 to 18446744073709551615")
        #expect(Self.message(Self.deployment, "{\"anchors\": \(Self.anchors), \"network_id\": 4294967296}") == "key \"network_id\" is 4294967296; allowed: an integer from 0 to 4294967295")
        #expect(Self.message(Self.deployment, "{\"anchors\": [{\"address\": \(Self.twoTo63), \"position_m\": [0, 0, 0]}]}") == "key \"anchors[0].address\" is \(Self.twoTo63); allowed: an integer from 0 to 65535")
        #expect(Self.message(Self.deployment, "{\"anchors\": [{\"address\": 1, \"position_m\": [\(Self.twoTo63), 0, 0]}]}") == "key \"anchors[0].position_m\" is an array; allowed: [x, y, z] in metres")
        #expect(Self.message(Self.deployment, "{\"anchors\": \(Self.anchors), \"timestamp_noise_m\": \(Self.twoTo63)}") == "key \"timestamp_noise_m\" is \(Self.twoTo63); allowed: a number from 0 to 10 metres")
        #expect(Self.message(Self.board, Self.boardStart + ", \"max_tx_power_dbm\": -\(Self.twoTo63)1}") == "key \"max_tx_power_dbm\" is -\(Self.twoTo63)1; allowed: an integer from -127 to 20")
        #expect(Self.message(Self.board, Self.boardStart + ", \"antenna_configurations\": [\(Self.twoTo64)]}")?.hasPrefix("key \"antenna_configurations\" holds \(Self.twoTo64); allowed with 1 antenna: ") == true)
        #expect(Self.message(Self.board, Self.boardStart + ", \"serial\": {\"baud\": \(Self.twoTo63)}}") == "key \"serial.baud\" is \(Self.twoTo63); allowed: an integer from 1200 to 20000000")
        // A scenario's numbers become flags, whose own checks apply: exact, never rounded.
        #expect((try? ScenarioFile.parse(Data("{\"seed\": 18446744073709551615, \"duration\": 1e1}".utf8))) == ["--duration", "10", "--seed", "18446744073709551615"])
        #expect(Self.message({ (d) throws(ToolError) in _ = try NearbyCommand.parse(ScenarioFile.parse(d)) }, "{\"seed\": \(Self.twoTo64)}")
                == "--seed must be a non-negative integer, found '\(Self.twoTo64)'")
    }

    /// Integers convert exactly in every notation, and only whole numbers are integers.
    @Test func integerNotations() throws {
        let ok = try PlanConfigFile.parse(Data(#"{"main_mode": 2.0, "config_id": 3e0, "mode_0_steps": 0.1e1, "subevent_len_us": 1.0e5}"#.utf8))
        #expect(ok.configuration.configID == 3 && ok.configuration.mode0Steps == 1 && ok.schedule.subeventLength == 100_000)
        #expect(Self.message(Self.config, #"{"main_mode": 2.5}"#) == "key \"main_mode\" is 2.5; allowed: an integer from 1 to 3")
        #expect(Self.message(Self.config, #"{"main_mode": 2, "config_id": 1e-400}"#) == "key \"config_id\" is 1e-400; allowed: an integer from 0 to 3")
    }

    // MARK: Numbers beyond a double, nesting, size, encoding: every reader

    @Test(arguments: HostileInputTests.readerNames.indices)
    func hostileDocumentsAreOneLineErrors(_ k: Int) throws {
        let (name, read) = (Self.readerNames[k], Self.reader(k))
        #expect(Self.message(read, "{\"main_mode\": 1e400}") == "not valid JSON (byte offset 14: the number 1e400 is beyond the range of a double (about ±1.8e308))", "\(name)")
        #expect(Self.message(read, "{\"seed\": -1E+999}") == "not valid JSON (byte offset 9: the number -1E+999 is beyond the range of a double (about ±1.8e308))", "\(name)")
        let deep = String(repeating: "[", count: 100_000)
        #expect(Self.message(read, deep) == "not valid JSON (byte offset 64: nested deeper than 64 levels)", "\(name)")
        #expect(Self.message(read, "{\"a\": " + String(repeating: "{\"a\": ", count: 70_000)) == "not valid JSON (byte offset 384: nested deeper than 64 levels)", "\(name)")
        var bytes = Array("{\"name\": \"ab".utf8) + [0xFF] + Array("\"}".utf8)
        #expect(Self.message(read, Data(bytes)) == "not valid UTF-8 (byte offset 12)", "\(name)")
        bytes = Array("{\"name\": \"".utf8) + [0xED, 0xA0, 0x80] + Array("\"}".utf8)  // an encoded surrogate
        #expect(Self.message(read, Data(bytes)) == "not valid UTF-8 (byte offset 10)", "\(name)")
        bytes = Array("{\"name\": \"".utf8) + [0xC0, 0xAF] + Array("\"}".utf8)  // an overlong "/"
        #expect(Self.message(read, Data(bytes)) == "not valid UTF-8 (byte offset 10)", "\(name)")
        #expect(Self.message(read, "{\"a\": \"\\uD800\"}") == "not valid JSON (byte offset 7: a lone surrogate \\uD800 inside a string)", "\(name)")
        #expect(Self.message(read, "{\"a\": \"tab\there\"}") == "not valid JSON (byte offset 10: control character U+0009 inside a string (it must be escaped))", "\(name)")
        #expect(Self.message(read, "{\"a\": 1, \"a\": 2}") == "not valid JSON (byte offset 9: duplicate key \"a\")", "\(name)")
        #expect(Self.message(read, "{\"a\": 01}") == "not valid JSON (byte offset 6: a number with a leading zero)", "\(name)")
        #expect(Self.message(read, "{\"a\": 1} x") == "not valid JSON (byte offset 9: text after the JSON value)", "\(name)")
        #expect(Self.message(read, "{\"a\": " + String(repeating: "9", count: 2000) + "}") == "not valid JSON (byte offset 6: a number 2000 characters long; allowed: at most 1000)", "\(name)")
        #expect(Self.message(read, "") == "not valid JSON (byte offset 0: unexpected end of the text)", "\(name)")
        #expect(Self.message(read, "[1, 2]") == "the top level must be a JSON object, found an array", "\(name)")
        // 40 KB of moderately nested arrays: linear, so refused at once, as the wrong type.
        let nested = "[" + Array(repeating: String(repeating: "[", count: 30) + "1" + String(repeating: "]", count: 30), count: 650).joined(separator: ",") + "]"
        #expect(nested.utf8.count > 40_000)
        #expect(Self.message(read, "{\"main_mode\": \(nested), \"name\": \(nested), \"anchors\": \(nested), \"cs_iv\": \(nested), \"seed\": \(nested)}")?.hasPrefix("key \"") == true, "\(name)")
    }

    /// Hex keys take ASCII digits only: fullwidth digits (which Character.isHexDigit accepts
    /// and no radix conversion reads) trapped the security reader.
    @Test func hexKeysTakeASCIIDigitsOnly() {
        let fullwidth = String(repeating: "\u{FF10}", count: 16)
        #expect(Self.message(Self.security, "{\"cs_iv\": \"E10BC28A0BFDDFE93E7F5186E0CA0B3B\", \"cs_in\": \"\(fullwidth)\", \"cs_pv\": \"C980DEDF9882ED4464A674967868F143\"}")
                == "key \"cs_in\" is \"\(fullwidth)\"; allowed: a string of 16 hexadecimal digits, most significant octet first")
        #expect(Self.message(Self.security, "{\"cs_iv\": \"+10BC28A0BFDDFE93E7F5186E0CA0B3B\"}")?.hasPrefix("key \"cs_iv\" is \"+10BC") == true)
        #expect(Self.message(Self.config, "{\"main_mode\": 2, \"channel_map\": \"\u{FF11}FFFFFFFFFFFFC7FFFFC\"}")?.hasPrefix("key \"channel_map\" is ") == true)
        #expect(Self.message(Self.deployment, "{\"anchors\": [{\"address\": \"+A01\", \"position_m\": [0, 0, 0]}]}") == "key \"anchors[0].address\" is \"+A01\"; allowed: 4 hexadecimal digits or an integer 0-65535")
        #expect(Self.message(Self.board, #"{"name": "b", "bluetooth_version": "6.3", "antennas": 2, "antenna_switch": {"gpio_mask": "00000003", "patterns": ["+0000001", "00000002"]}}"#)
                == "key \"antenna_switch.patterns[0]\" is \"+0000001\"; allowed: 8 hexadecimal digits")
    }

    // MARK: Files on disk: a size cap before reading, a header before the records

    @Test func filesLargerThanTheCapAreRefusedUnread() throws {
        try TemporaryDirectory.with("hostile") { dir in
            let path = dir.file("huge.json")
            // 200 MB of zeros, sparse: refused by its size, not by reading it.
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: 200_000_000)
            try handle.close()
            let expected = "\(path): too large for a JSON file; allowed: at most \(JSONFile.maximumSize) bytes (8 MiB)"
            #expect(throws: ToolError.badFile(expected)) { try PlanConfigFile.read(path: path) }
            #expect(throws: ToolError.badFile(expected)) { try DeploymentFile.read(path: path) }
            #expect(throws: ToolError.badFile(expected)) { try ScenarioFile.read(path: path) }
            #expect(throws: ToolError.badFile(expected)) { try BoardProfile.read(path: path) }
            #expect(throws: ToolError.badFile(expected)) { try SecurityFile.read(path: path) }
            #expect(throws: ToolError.badFile("\(dir.path): cannot read the file")) { try SecurityFile.read(path: dir.path) }
            // An endless device: read up to the cap, then refused.
            #expect(throws: ToolError.badFile("/dev/zero: too large for a JSON file; allowed: at most \(JSONFile.maximumSize) bytes (8 MiB)")) {
                try DeploymentFile.read(path: "/dev/zero")
            }
            // The same zeros as a capture: not a btsnoop file, known from its first 16 octets.
            let capture = try CaptureFile.read(path: path, defaultRole: .initiator)
            #expect(capture.problems.map(\.description) == ["byte offset 0: not a btsnoop file: it does not start with \"btsnoop\\0\""])
            // A valid header, then zeros: an empty record at offset 16, the rest unread.
            let header = Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0, 0x03, 0xEA]
            let zeros = dir.file("zeros.btsnoop")
            #expect(FileManager.default.createFile(atPath: zeros, contents: Data(header)))
            let h = try #require(FileHandle(forWritingAtPath: zeros))
            try h.truncate(atOffset: 200_000_000)
            try h.close()
            #expect(try CaptureFile.read(path: zeros, defaultRole: .initiator).problems.map(\.description)
                    == ["byte offset 16: malformed record: no octets, so no H4 packet indicator"])
            // A record that claims 4 GB: truncated, known without reading (or reserving) it.
            let claim = header + [0xFF, 0xFF, 0xFF, 0xF0, 0xFF, 0xFF, 0xFF, 0xF0] + [UInt8](repeating: 0, count: 16) + [0x04, 0x0E]
            let liar = dir.file("liar.btsnoop")
            try Data(claim).write(to: URL(fileURLWithPath: liar))
            #expect(try CaptureFile.read(path: liar, defaultRole: .initiator).problems.map(\.description)
                    == ["byte offset 16: record data cut short (4294967280 octets declared, 2 present): the capture is truncated"])
        }
    }

    /// The executable answers hostile files with status 2 and one line on stderr, not a trap.
    @Test func theToolExitsWithStatus2() throws {
        try TemporaryDirectory.with("hostile-tool") { dir in
            let security = dir.file("s.json")
            try Data(#"{"cs_iv": "E10BC28A0BFDDFE93E7F5186E0CA0B3B", "cs_in": "9FF477C18673840D", "cs_pv": "C980DEDF9882ED4464A674967868F143"}"#.utf8)
                .write(to: URL(fileURLWithPath: security))
            let config = dir.file("c.json")
            try Data("{\"main_mode\": \(Self.twoTo63)}".utf8).write(to: URL(fileURLWithPath: config))
            let deployment = dir.file("d.json")
            try Data("{\"anchors\": \(Self.anchors), \"seed\": \(Self.twoTo63)0}".utf8).write(to: URL(fileURLWithPath: deployment))
            for (args, message) in [
                (["plan", "--config", config, "--security", security], "\(config): key \"main_mode\" is \(Self.twoTo63); allowed: an integer from 1 to 3"),
                (["tdoa", "plan", deployment], "\(deployment): key \"seed\" is \(Self.twoTo63)0; allowed: an integer from 0 to 18446744073709551615"),
                (["tdoa", deployment], "\(deployment): key \"seed\" is \(Self.twoTo63)0; allowed: an integer from 0 to 18446744073709551615"),
            ] {
                let r = try ToolProcess.run(args)
                #expect(r.status == 2 && r.stdout.isEmpty, "\(args)")
                #expect(r.stderr == "reflector-emu: \(message)\n")
            }
        }
    }
}
