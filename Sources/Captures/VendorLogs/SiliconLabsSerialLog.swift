import ReflectorFirmware
import ToolJSON

/// What Silicon Labs' tools capture from a CS initiator's serial port (their
/// `cs_step_data_parser`'s input, SiliconLabs/bluetooth_stack_features
/// `tools/channel_sounding/cs_step_data_parser/example_logs/example_rtt_input.txt`): one
/// `SiliconLabsSerialLine` per line, the stack's API events and the app's `log` output.
/// Some `log` lines carry their RTL library's input and output as JSON (`SiliconLabsRTLJSON`),
/// one text split over consecutive `log` lines: the first fragment starts with `{`, the last
/// ends with a newline. Those texts give each procedure, both sides' raw Step_Data (Core 6.0
/// Vol 4 Part E §7.7.65.44) and the library's own distance (`CapturedProcedure.vendorDistance`).
///
/// The steps' layout needs N_AP (a mode-2 step has N_AP + 1 tones; modes 0 and 1 have none),
/// which the JSON does not give per procedure: it and the Config_ID come from the initiator's
/// `bt_evt_cs_result` event of the same procedure counter, else the latest such event, else
/// `rtl_config`'s `num_antenna_paths` (when 1 to 4), else 1. Other lines (the app's text,
/// commands, responses, other events) are passed over. A line that is not of the trace's form,
/// a `log` line whose bytes do not read, a JSON text that does not parse, does not end (the
/// app's own text or the end of the file comes first) or does not mean what it must, a
/// `bt_evt_cs_result` whose fields do not read, or step data that does not decode stop the
/// reading with the line named; the procedures before it are kept.
enum SiliconLabsSerialLog {
    /// Whether `bytes` start as such a trace: its first lines (up to 8, blank ones aside) are all
    /// trace lines. The head's last line is left out when it may be cut (no newline after it).
    static func matches(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(1 << 16), as: UTF8.self)
        var lines = head.split(separator: "\n", maxSplits: 8, omittingEmptySubsequences: false)
        // The piece after the last newline split (the rest of the head, or a line that may be cut).
        if lines.count > 1 { lines.removeLast() }
        let text = lines.map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }.filter { !$0.allSatisfy { $0 == " " || $0 == "\t" } }
        return !text.isEmpty && text.allSatisfy { SiliconLabsSerialLine($0) != nil }
    }

    static func read(_ bytes: [UInt8]) -> CaptureProcedures {
        Reader().read(bytes)
    }

    /// The most octets one JSON text may hold, far above the largest procedure's (160 mode-2
    /// steps a side with four antenna paths: about 10 KiB of base64), so a text that never
    /// ends stops the reading before it grows without bound.
    static let maximumText = 1 << 20

    private struct Reader: LogLineReader {
        /// A JSON text being joined: its first line, its octets so far, and where each line's
        /// fragment starts in them (to name the line a parse error falls on).
        struct Text {
            var line: Int
            var octets: [UInt8] = []
            var starts: [(offset: Int, line: Int)] = []
        }

        var procedures = LoggedProcedures(origin: .siliconLabsLog)
        var text: Text?
        /// Config_ID and N_AP per procedure counter, from the initiator's `bt_evt_cs_result`.
        var events: [UInt16: (configID: UInt8, antennaPaths: Int)] = [:]
        var lastEvent: (configID: UInt8, antennaPaths: Int)?
        var configAntennaPaths: Int?

        mutating func line(_ number: Int, _ text: Substring) throws(LogLineError) {
            if text.allSatisfy({ $0 == " " || $0 == "\t" }) { return }
            guard let line = SiliconLabsSerialLine(text) else {
                throw LogLineError(line: number, "not a line of a Silicon Labs serial log (time, < or >, kind, what it carried)")
            }
            switch line.kind {
            case .log: try log(number, line.payload)
            case .event: try event(number, line.payload)
            case .command, .response, .sync: break
            }
        }

        mutating func log(_ number: Int, _ payload: Substring) throws(LogLineError) {
            let octets: [UInt8]
            do throws(PythonBytesLiteral.Failure) {
                let read = try PythonBytesLiteral.read(payload)
                guard read.rest.allSatisfy({ $0 == " " }) else { throw PythonBytesLiteral.Failure(message: "text after the closing quote") }
                octets = read.octets
            } catch {
                throw LogLineError(line: number, "the log line's bytes do not read: \(error.message)")
            }
            if var t = text {
                // The app's own log lines start with 0xBB: one inside a JSON text means it was cut.
                guard octets.first != 0xBB else { throw unended(t, at: number) }
                t.starts.append((t.octets.count, number))
                t.octets += octets
                guard t.octets.count <= maximumText else {
                    throw LogLineError(line: number, "the JSON text of line \(t.line) runs past \(maximumText) octets without its end")
                }
                text = t
            } else {
                guard octets.first == UInt8(ascii: "{") else { return }  // the app's own text
                text = Text(line: number, octets: octets, starts: [(0, number)])
            }
            if octets.last == 0x0A, let t = text {
                text = nil
                try finish(t, endLine: number)
            }
        }

        func unended(_ t: Text, at line: Int) -> LogLineError {
            LogLineError(line: line, "the JSON text of line \(t.line) never ends (no fragment ending in a newline): the log is cut short or garbled")
        }

        /// A whole JSON text: the library's configuration, or a procedure to add.
        mutating func finish(_ t: Text, endLine: Int) throws(LogLineError) {
            let document: JSONValue
            do throws(JSONParser.Failure) {
                document = try JSONValue.document(t.octets)
            } catch {
                let line = t.starts.last { $0.offset <= error.offset }?.line ?? t.line
                throw LogLineError(line: line, "the JSON text of line \(t.line) does not parse: \(error.description)")
            }
            let meaning: SiliconLabsRTLJSON.Text
            do throws(SiliconLabsRTLJSON.Failure) {
                meaning = try SiliconLabsRTLJSON.read(document, line: t.line)
            } catch {
                throw LogLineError(line: t.line, "\(error.path): \(error.message)")
            }
            switch meaning {
            case .config(let paths):
                configAntennaPaths = paths
            case .procedure(let subevents, let vendor):
                // Every side decodes before any is added, so no procedure ends after the problem.
                var ready: [LoggedSubevent] = []
                for (path, s) in subevents {
                    var s = s
                    let context = events[s.procedureCounter] ?? lastEvent
                    s.configID = context?.configID ?? 0
                    s.antennaPaths = context?.antennaPaths ?? configAntennaPaths ?? 1
                    do throws(LogLineError) {
                        _ = try s.steps()
                    } catch {
                        throw LogLineError(line: error.line, "\(path).step_data: \(error.message)")
                    }
                    ready.append(s)
                }
                for s in ready { try procedures.add(s, endLine: endLine, vendorDistance: vendor) }
            case .other:
                break
            }
        }

        /// `bt_evt_cs_result`: the Config_ID and N_AP of its procedure.
        mutating func event(_ number: Int, _ payload: Substring) throws(LogLineError) {
            guard payload.hasPrefix("bt_evt_cs_result(") else { return }
            guard let call = SiliconLabsSerialLine.call(payload) else {
                throw LogLineError(line: number, "bt_evt_cs_result: not name(key=value, ...): the line is cut short or garbled")
            }
            func int(_ key: String, _ range: ClosedRange<Int>) throws(LogLineError) -> Int {
                guard let text = call.arguments.first(where: { $0.key == key })?.value else {
                    throw LogLineError(line: number, "bt_evt_cs_result: no \(key)")
                }
                guard let v = LogLines.integer(text), range.contains(v) else {
                    throw LogLineError(line: number, "bt_evt_cs_result: \(key) '\(text)' is not a number in \(range.lowerBound)...\(range.upperBound)")
                }
                return v
            }
            let context = (configID: UInt8(try int("config_id", 0...3)), antennaPaths: try int("num_antenna_paths", 1...4))
            events[UInt16(try int("procedure_counter", 0...65535))] = context
            lastEvent = context
        }

        mutating func end(lastLine: Int) throws(LogLineError) {
            if let t = text { throw unended(t, at: lastLine) }
        }
    }
}
