import ReflectorFirmware

/// Silicon Labs' step-data dump, as their CS SoC samples print it and their
/// `cs_step_data_parser` reads it (SiliconLabs/bluetooth_stack_features,
/// `tools/channel_sounding/cs_step_data_parser`, `step_data/StepData.py`): per procedure both
/// sides, each with the LE CS Subevent Result fields it has and the Step_Data octets in hex
/// (Core 6.0 Vol 4 Part E §7.7.65.44):
///
/// ```
/// ------------Start CS Procedure Data------------
/// Initiator:
///  subevent_timestamps_ms: 2191
///  Frequency compensation: -474
///  Reference power level: -22
///  Number of antenna paths: 4
///  Step data count: 1752
///  Step data: 00 25 05 00 e2 01 26 fe ...
/// Reflector:
///  ...
/// ------------End CS Procedure Data------------
/// ```
///
/// The dump has no Procedure_Counter or Config_ID: procedures are numbered 0, 1, … in file
/// order (a new one at each "Start" line, or at an "Initiator:" line after a complete pair when
/// the markers are missing) and take Config_ID 0. Frequency compensation is a signed value in
/// 0.01 ppm (the reflector's controller reports 0 where the spec has 0xC000; it is read as
/// given). "Step data count" is the number of octets, and must match the hex. A line that is
/// not one of these, a value that does not read, a count that does not match, step data that
/// does not decode, or the end of the file inside a side stop the reading with the line named.
enum SiliconLabsStepLog {
    static func matches(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(1 << 16), as: UTF8.self)
        return head.contains("Start CS Procedure Data") || (head.contains("Initiator:") && head.contains("Step data:"))
    }

    static func read(_ bytes: [UInt8]) -> CaptureProcedures {
        Reader().read(bytes)
    }

    private struct Reader: LogLineReader {
        var procedures = LoggedProcedures(origin: .siliconLabsLog)
        var counter = -1
        var side: LoggedSubevent?
        var declared: Int?
        var sidesDone: Set<CSRole> = []

        mutating func line(_ number: Int, _ text: Substring) throws(LogLineError) {
            let t = text.trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            if t.isEmpty { return }
            if t.contains("Start CS Procedure Data") {
                try close(number)
                counter += 1
                sidesDone = []
                return
            }
            if t.contains("End CS Procedure Data") {
                try close(number)
                return
            }
            if t.hasPrefix("Initiator:") || t.hasPrefix("Reflector:") {
                try close(number)
                let role: CSRole = t.hasPrefix("Initiator:") ? .initiator : .reflector
                if counter < 0 || sidesDone.contains(role) {
                    counter += 1
                    sidesDone = []
                }
                var s = LoggedSubevent(role: role, line: number)
                s.procedureCounter = UInt16(truncatingIfNeeded: counter)
                side = s
                declared = nil
                return
            }
            guard side != nil, let colon = t.firstIndex(of: ":") else {
                throw LogLineError(line: number, side == nil ? "not a line of a Silicon Labs step-data dump (no Initiator: or Reflector: before it)" : "not a 'key: value' line")
            }
            let key = t[..<colon].trimmingCharacters(in: " ")
            let value = t[t.index(after: colon)...].trimmingPrefix(while: { $0 == " " })
            func int(_ range: ClosedRange<Int>) throws(LogLineError) -> Int {
                guard let v = LogLines.integer(value.trimmingSuffix(" ")), range.contains(v) else {
                    throw LogLineError(line: number, "\(key): '\(value)' is not a number in \(range.lowerBound)...\(range.upperBound)")
                }
                return v
            }
            switch key {
            case "Frequency compensation":
                side!.frequencyCompensation = LoggedSubevent.frequencyCompensation(try int(-16384...16383)) ?? 0xC000
            case "Reference power level":
                side!.referencePowerLevel = Int8(try int(-128...127))
            case "Number of antenna paths":
                side!.antennaPaths = try int(1...4)
            case "Step data count":
                declared = try int(0...(1 << 20))
            case "Step data":
                guard let octets = LogLines.hexOctets(value) else {
                    throw LogLineError(line: number, "Step data: not hex octets")
                }
                guard let n = declared else { throw LogLineError(line: number, "Step data before its Step data count") }
                guard octets.count == n else {
                    throw LogLineError(line: number, "Step data holds \(octets.count) octets, Step data count says \(n): the dump is cut short or garbled")
                }
                side!.stepData = octets
                try finish(number)
            default:
                // subevent_timestamps_ms and fields this reader does not use.
                break
            }
        }

        mutating func finish(_ line: Int) throws(LogLineError) {
            guard let s = side else { return }
            side = nil
            sidesDone.insert(s.role)
            try procedures.add(s, endLine: line)
        }

        /// A side that is still open when another starts (or the file ends) has no step data.
        mutating func close(_ line: Int) throws(LogLineError) {
            if let s = side {
                throw LogLineError(line: line, "the \(s.role == .initiator ? "initiator" : "reflector") side of line \(s.line) ends without its Step data: the dump is cut short")
            }
        }

        mutating func end(lastLine: Int) throws(LogLineError) { try close(lastLine) }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        trimmingPrefix(while: { $0 == set }).trimmingSuffix(set)
    }

    fileprivate func trimmingSuffix(_ c: Character) -> Substring {
        var s = self
        while s.last == c { s = s.dropLast() }
        return s
    }
}
