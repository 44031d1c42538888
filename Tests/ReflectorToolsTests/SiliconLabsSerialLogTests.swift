import Foundation
import EmulatorMath
import MCUboot
@testable import ReflectorFirmware
@testable import ReflectorTools
@testable import Captures
import TestSupport
import Testing
import WireFormat

/// Silicon Labs' serial log of ten RTT procedures (`data/field/silabs-rtt`): read by content,
/// both sides' step data octet for octet as their parser's JSON of the same procedures has
/// them and as the log's own LE CS Subevent Result events carry them, the RTL library's
/// distances kept, and a cut or garbled log named by its line.
struct SiliconLabsSerialLogTests {
    static let log = VendorLogTests.field + "/silabs-rtt/example_rtt_log_first10.txt"
    static let json = VendorLogTests.field + "/silabs-rtt/example_rtt_first10.json"

    static func bytes(_ path: String) throws -> [UInt8] { try VendorLogTests.bytes(path) }
    static func lines() throws -> [String] { String(decoding: try bytes(log), as: UTF8.self).components(separatedBy: "\n") }
    static func read(_ lines: [String]) -> CaptureProcedures { SiliconLabsSerialLog.read(Array(lines.joined(separator: "\n").utf8)) }

    /// The octets of `steps` as the events carry them (Mode, Channel, Data_Length, data).
    static func octets(_ steps: [SubeventStep]) -> [UInt8] {
        var w = ByteWriter()
        for s in steps { s.encode(into: &w) }
        return w.bytes
    }

    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory("silabs-serial") }

    // MARK: Reading

    @Test func formatIsChosenByContent() throws {
        let log = try Self.bytes(Self.log)
        #expect(CaptureFormat(log) == .siliconLabsSerialLog)
        #expect(CaptureFormat(Array(log.prefix(200))) == .siliconLabsSerialLog)
        // The other field recordings are not taken for it, nor it for them.
        #expect(CaptureFormat(try Self.bytes(Self.json)) == .siliconLabsJSON)
        #expect(CaptureFormat(try Self.bytes(VendorLogTests.silabs)) == .siliconLabsLog)
        #expect(CaptureFormat(try Self.bytes(VendorLogTests.ncsInitiator)) == .ncsLog)
        // One line of another form among the first eight is enough to refuse it.
        var lines = try Self.lines()
        lines[3] = "[00:00:01.000,000] <inf> app: hello"
        #expect(CaptureFormat(Array(lines.joined(separator: "\n").utf8)) != .siliconLabsSerialLog)
        #expect(!SiliconLabsSerialLog.matches(Array("00:00.5 < log b''\n".utf8)))
        #expect(!SiliconLabsSerialLog.matches([]))
    }

    /// The ten procedures, both sides: the same steps, octet for octet, as their parser's JSON
    /// of them; the initiator's also as the log's own bt_evt_cs_result(_continue) events.
    @Test func readsBothSidesAsTheirParserDoes() throws {
        let c = CaptureReader.read(bytes: try Self.bytes(Self.log), defaultRole: .initiator)
        #expect(c.problems.isEmpty, "\(c.problems)")
        let parser = CaptureReader.read(bytes: try Self.bytes(Self.json), defaultRole: .initiator)
        #expect(parser.problems.isEmpty, "\(parser.problems)")
        for role in [CSRole.initiator, .reflector] {
            let mine = c.procedures.filter { $0.role == role }, theirs = parser.procedures.filter { $0.role == role }
            #expect(mine.map(\.procedureCounter) == Array(0...9))
            #expect(mine.count == theirs.count)
            for (m, t) in zip(mine, theirs) {
                #expect(Self.octets(m.results.steps) == Self.octets(t.results.steps), "\(role) procedure \(m.procedureCounter)")
                #expect(m.results.steps.count == 75)
            }
        }
        #expect(c.procedures.allSatisfy { $0.antennaPaths == 4 && $0.results.configID == 1 && $0.origin == .siliconLabsLog })
        let first = c.procedures[0].results, reflector = c.procedures[1].results
        #expect(c.procedures[0].role == .initiator && c.procedures[1].role == .reflector)
        #expect(first.frequencyCompensation == 34 && first.subevents[0].referencePowerLevel == -64)
        #expect(reflector.frequencyCompensation == 0 && reflector.subevents[0].referencePowerLevel == -66)
        // 3 mode-0 steps (5 octets on the initiator, 3 on the reflector), then 72 mode-1.
        #expect(first.steps.prefix(3).allSatisfy { $0.mode == .mode0 } && first.steps.dropFirst(3).allSatisfy { $0.mode == .mode1 })
        #expect(Self.octets(first.steps).prefix(8) == [0x00, 0x09, 0x05, 0x00, 0xC0, 0x01, 0x24, 0x00])
        #expect(Self.octets(reflector.steps).prefix(6) == [0x00, 0x09, 0x03, 0x00, 0xBF, 0x01])

        // The events' data fields, joined per procedure until Procedure_Done_Status 0.
        var events: [[UInt8]] = [], current: [UInt8] = []
        for line in try Self.lines() {
            guard let l = SiliconLabsSerialLine(Substring(line)), l.kind == .event, l.payload.hasPrefix("bt_evt_cs_result"),
                  let call = SiliconLabsSerialLine.call(l.payload) else { continue }
            let arguments = Dictionary(call.arguments.map { (String($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
            current += try PythonBytesLiteral.read(try #require(arguments["data"])).octets
            if arguments["procedure_done_status"] == "0" {
                events.append(current)
                current = []
            }
        }
        #expect(events.count == 10)
        #expect(events == c.procedures.filter { $0.role == .initiator }.map { Self.octets($0.results.steps) })
    }

    /// `rtl_output`'s distance and raw distance on both sides' procedures; the app's own lines
    /// (`Measurement main mode result: 9293 mm`) print the first in whole millimetres.
    @Test func keepsTheLibrarysDistances() throws {
        let c = SiliconLabsSerialLog.read(try Self.bytes(Self.log))
        let initiators = c.procedures.filter { $0.role == .initiator }
        #expect(initiators.map { $0.vendorDistance?.distance } == [9.293567, 8.768930, 8.394190, 8.188083, 8.469137, 8.494121, 8.394190, 8.272399, 8.235966, 8.139366])
        #expect(initiators.map { $0.vendorDistance?.raw } == [9.293567, 8.244293, 7.644708, 7.569760, 9.593359, 8.619034, 7.794604, 7.419864, 7.944500, 7.269968])
        #expect(c.procedures.filter { $0.role == .reflector }.map(\.vendorDistance) == initiators.map(\.vendorDistance))
        let app = try Self.lines().compactMap { line -> Int? in
            guard let r = line.range(of: "Measurement main mode result: ") else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }
        #expect(app == initiators.map { Int(($0.vendorDistance?.distance ?? 0) * 1000) })
    }

    /// `estimate` prints the library's distance beside ours (no distance of ours for RTT-only
    /// steps yet), in text and in JSON; a file without one has no such key.
    @Test func estimatePrintsTheVendorsDistance() throws {
        let text = try EstimateCommand.run([Self.log])
        #expect(text.status == 0 && text.message == nil)
        #expect(text.lines.count == 10)
        #expect(text.lines.first?.hasPrefix("procedure 0: ") == true)
        #expect(text.lines.first?.hasSuffix("; vendor 9.294 m, raw 9.294 m)") == true, "\(text.lines)")
        #expect(text.lines[1].hasSuffix("; vendor 8.769 m, raw 8.244 m)"))
        let json = try EstimateCommand.run([Self.log, "--json"])
        #expect(json.lines.first?.contains(#""vendor_distance_m": 9.293567, "vendor_distance_raw_m": 9.293567"#) == true, "\(json.lines)")
        let other = try EstimateCommand.run([VendorLogTests.silabs, "--json"])
        #expect(other.lines.count == 1 && !other.output.contains("vendor_distance"))
    }

    /// Without the events, N_AP falls back on rtl_config's (0 there: not 1 to 4, so 1) and
    /// Config_ID on 0; the RTT steps, which have no tones, read the same.
    @Test func antennaPathsWithoutTheEvents() throws {
        let all = Self.read(try Self.lines())
        let without = Self.read(try Self.lines().filter { !$0.contains("< event    bt_evt_cs_result(") })
        #expect(without.problems.isEmpty)
        #expect(without.procedures.allSatisfy { $0.antennaPaths == 1 && $0.results.configID == 0 })
        #expect(without.procedures.map { $0.results.steps } == all.procedures.map { $0.results.steps })
    }

    /// Mode-2 steps need N_AP: the one-procedure dump of four antenna paths (Silicon Labs'
    /// step-data dump), written as this log with its event, reads to the same steps.
    @Test func phaseStepsTakeTheEventsAntennaPaths() throws {
        let dump = CaptureReader.read(bytes: try Self.bytes(VendorLogTests.silabs), defaultRole: .initiator)
        let i = dump.procedures[0], r = dump.procedures[1]
        func side(_ p: CapturedProcedure) -> String {
            let b64 = String(decoding: Base64.encode(Self.octets(p.results.steps)), as: UTF8.self)
            return #"[{"procedure_counter": 0, "frequency_compensation": 0, "reference_power_level": -20, "num_steps": \#(p.results.steps.count), "step_data": "\#(b64)"}]"#
        }
        let text = #"{"rtl_instance_id": 0, "cs_procedure": {"initiator_subevent_data": \#(side(i)), "reflector_subevent_data": \#(side(r))}, "rtl_output": {"distance": 1.5}}"# + "\n"
        // Split over log lines of 250 characters, as the library writes it.
        var lines = ["0:00:01.000000 < event    bt_evt_cs_result(connection=1, config_id=2, start_acl_conn_event=1, procedure_counter=0, num_antenna_paths=4, data=b'')"]
        var rest = Substring(text)
        while !rest.isEmpty {
            let chunk = rest.prefix(250)
            rest = rest.dropFirst(250)
            lines.append("0:00:01.000100 (+0.000100) < log      b'" + chunk.replacingOccurrences(of: "\n", with: "\\n") + "'")
        }
        let c = Self.read(lines)
        #expect(c.problems.isEmpty, "\(c.problems)")
        #expect(c.procedures.map { $0.results.steps } == [i.results.steps, r.results.steps])
        #expect(c.procedures.allSatisfy { $0.antennaPaths == 4 && $0.results.configID == 2 && $0.vendorDistance == VendorDistance(distance: 1.5, raw: nil) })
        // With N_AP 2 from the event, the 4-path steps do not decode: named by side, step and octet.
        lines[0] = lines[0].replacingOccurrences(of: "num_antenna_paths=4", with: "num_antenna_paths=2")
        let two = Self.read(lines)
        #expect(two.procedures.isEmpty)
        #expect(two.problems.first?.description.hasPrefix("line 2: cs_procedure.initiator_subevent_data[0].step_data: step 3 (step data octet ") == true, "\(two.problems)")
    }

    // MARK: Cut and garbled logs

    /// The log cut inside procedure 5's JSON text: procedures 0 to 4 kept, the line named, and
    /// `estimate` exits 2 after printing them.
    @Test func cutMidJSONNamesTheLine() throws {
        let lines = try Self.lines()
        let starts = lines.indices.filter { lines[$0].contains(#"< log      b'{"rtl_instance_id": 0, "cs_procedure""#) }
        #expect(starts.count == 10)
        let cut = Array(lines[...(starts[5] + 3)])
        let c = Self.read(cut)
        #expect(c.procedures.map(\.procedureCounter) == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4])
        let expected = "line \(starts[5] + 4): the JSON text of line \(starts[5] + 1) never ends (no fragment ending in a newline): the log is cut short or garbled"
        #expect(c.problems.map(\.description) == [expected])
        let path = try dir.write(cut.joined(separator: "\n") + "\n")
        let run = try EstimateCommand.run([path])
        #expect(run.status == 2)
        #expect(run.lines.count == 5)
        #expect(run.message == "\(path): \(expected); 10 procedures before it")
        // The app's own line where the text's next fragment should be: named there.
        var interrupted = lines
        let last = try #require(lines[starts[5]...].firstIndex { $0.hasSuffix(#"\n'"#) })
        interrupted.remove(at: last)
        #expect(interrupted[last].contains(#"< log      b'\xbb"#))
        #expect(Self.read(interrupted).problems.map(\.description) == ["line \(last + 1): the JSON text of line \(starts[5] + 1) never ends (no fragment ending in a newline): the log is cut short or garbled"])
    }

    @Test func garbledLogsNameTheLine() throws {
        let lines = try Self.lines()
        let start = try #require(lines.firstIndex { $0.contains(#"b'{"rtl_instance_id": 0, "cs_procedure""#) })
        func problem(_ change: (inout [String]) -> Void) -> (Int, String) {
            var l = lines
            change(&l)
            let c = Self.read(l)
            #expect(c.problems.count == 1)
            #expect(c.procedures.allSatisfy { $0.offset <= c.problems.first?.offset ?? 0 })
            return (c.problems.first?.offset ?? 0, c.problems.first?.message ?? "")
        }
        func first(_ l: inout [String], _ from: String, _ to: String) {
            let k = l.firstIndex { $0.contains(from) }!
            l[k] = l[k].replacingOccurrences(of: from, with: to)
        }
        // Bad base64 in the initiator's step data: the JSON text's first line and its key.
        #expect(problem { first(&$0, #""step_data": "AAkFAMAB"#, #""step_data": "AAk!AMAB"#) }
                == (start + 1, "cs_procedure.initiator_subevent_data[0].step_data: not base64"))
        // A step that does not decode (mode 0 with 6 octets of data): the step and its octet.
        #expect(problem { first(&$0, #""step_data": "AAkFAMAB"#, #""step_data": "AAkGAMAB"#) }
                == (start + 1, "cs_procedure.initiator_subevent_data[0].step_data: step 0 (step data octet 0): Step_Data_Length = 6 is not allowed"))
        // Fewer steps than num_steps says.
        #expect(problem { first(&$0, #""num_steps": 75, "step_data": "AAkFAMAB"#, #""num_steps": 76, "step_data": "AAkFAMAB"#) }
                == (start + 1, "cs_procedure.initiator_subevent_data[0].step_data: the step data holds 75 steps, Num_Steps_Reported says 76"))
        // A value out of range.
        #expect(problem { first(&$0, #""reference_power_level": -64"#, #""reference_power_level": -640"#) }
                == (start + 1, "cs_procedure.initiator_subevent_data[0].reference_power_level: is -640; allowed: an integer from -128 to 127"))
        // JSON broken in a later fragment: that fragment's line.
        let output = try #require(lines.firstIndex { $0.contains(#""rtl_output": {"#) })
        let (line, message) = problem { first(&$0, #""rtl_output": {"#, #""rtl_output": {{"#) }
        #expect(line == output + 1 && message.hasPrefix("the JSON text of line \(start + 1) does not parse: not valid JSON (byte offset "), "\(message)")
        // A log line whose bytes literal is cut, and a line that is not of the trace at all.
        #expect(problem { $0[start] = String($0[start].dropLast()) } == (start + 1, "the log line's bytes do not read: no closing quote: the line is cut short"))
        #expect(problem { $0[start] = String($0[start].replacingOccurrences(of: "'{", with: "'\\q{")) }
                == (start + 1, "the log line's bytes do not read: unknown escape \\q"))
        #expect(problem { $0[10] = "\u{1}garbage" } == (11, "not a line of a Silicon Labs serial log (time, < or >, kind, what it carried)"))
        // An event whose N_AP does not read, and one cut short.
        let event = try #require(lines.firstIndex { $0.contains("bt_evt_cs_result(") })
        #expect(problem { first(&$0, "num_antenna_paths=4", "num_antenna_paths=9") } == (event + 1, "bt_evt_cs_result: num_antenna_paths '9' is not a number in 1...4"))
        #expect(problem { $0[event] = String($0[event].prefix(400)) } == (event + 1, "bt_evt_cs_result: not name(key=value, ...): the line is cut short or garbled"))
    }

    /// Any cut of the log, at a line or inside one, reads without a trap: at most one problem,
    /// on a line of what is left, and no procedure after it.
    @Test func everyCutReads() throws {
        let bytes = try Self.bytes(Self.log)
        let newlines = bytes.indices.filter { bytes[$0] == 0x0A }
        var cuts = stride(from: 0, to: newlines.count, by: 5).map { newlines[$0] + 1 }
        var generator = SplitMix64(seed: 40)
        cuts += (0..<60).map { _ in Int(generator.next() % UInt64(bytes.count)) }
        for cut in cuts {
            let piece = Array(bytes.prefix(cut))
            let c = SiliconLabsSerialLog.read(piece)
            let lines = piece.split(separator: 0x0A, omittingEmptySubsequences: false).count
            #expect(c.problems.count <= 1, "cut at \(cut)")
            if let p = c.problems.first {
                #expect(p.isLine && (1...lines).contains(p.offset), "cut at \(cut): \(p)")
                #expect(c.procedures.allSatisfy { $0.offset <= p.offset }, "cut at \(cut)")
            }
            #expect(c.procedures.count <= 20)
        }
    }

    // MARK: The line's parts

    @Test func pythonBytesLiterals() throws {
        #expect(try PythonBytesLiteral.read(#"b'\xbb[I] ok\n'"#).octets == [0xBB] + Array("[I] ok\n".utf8))
        #expect(try PythonBytesLiteral.read(#"b"it's", x"#) == (Array("it's".utf8), ", x"))
        #expect(try PythonBytesLiteral.read(#"b'\\\'\"\t\r\0\177\x7F'"#).octets == [0x5C, 0x27, 0x22, 0x09, 0x0D, 0x00, 0x7F, 0x7F])
        #expect(try PythonBytesLiteral.read(#"'str'"#, bytes: false).octets == Array("str".utf8))
        #expect(throws: PythonBytesLiteral.Failure(message: "\\x not followed by two hex digits")) { try PythonBytesLiteral.read(#"b'\x4'"#) }
        #expect(throws: PythonBytesLiteral.Failure(message: "octal escape above \\377")) { try PythonBytesLiteral.read(#"b'\777'"#) }
        #expect(throws: PythonBytesLiteral.Failure(message: "no closing quote: the line is cut short")) { try PythonBytesLiteral.read(#"b'abc\'"#) }
        #expect(throws: PythonBytesLiteral.Failure(message: "not a bytes literal (b'...')")) { try PythonBytesLiteral.read("'abc'") }
    }

    @Test func traceLinesAndCalls() throws {
        let l = try #require(SiliconLabsSerialLine(#"0:00:28.029357 (+0.000030) < event    bt_evt_x(a=1, data=b"\x01, )'", s='x, y', z=-3)"#))
        #expect(l.fromBoard && l.kind == .event)
        let call = try #require(SiliconLabsSerialLine.call(l.payload))
        #expect(call.name == "bt_evt_x")
        #expect(call.arguments.map { "\($0.key)=\($0.value)" } == ["a=1", #"data=b"\x01, )'""#, "s='x, y'", "z=-3"])
        #expect(SiliconLabsSerialLine("0:00:00.055511 (+0.000031) < sync     ")?.kind == .sync)
        #expect(SiliconLabsSerialLine("0:00:26.623901 > command  bt_cmd_x()")?.fromBoard == false)
        #expect(SiliconLabsSerialLine("0:00:26.623901 (0.1) > command  bt_cmd_x()") == nil)
        #expect(SiliconLabsSerialLine("0:00:26.623901 < note x") == nil)
        #expect(SiliconLabsSerialLine("I: CS Subevent result received:") == nil)
        #expect(SiliconLabsSerialLine.call("bt_evt_x(a=b'unended)") == nil)
    }
}
