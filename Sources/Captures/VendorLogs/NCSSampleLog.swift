import ReflectorFirmware

/// The log of the nRF Connect SDK Channel Sounding samples (`cs_ini`/`cs_ref` style, NCS 3.x,
/// Zephyr's log format): the CS configuration, the procedure parameters, and per subevent the
/// LE CS Subevent Result fields with the raw Step_Data in hex (Core 6.0 Vol 4 Part E
/// §7.7.65.44), one side per file:
///
/// ```
/// I: CS config creation complete.
/// I:  - id: 0
/// I:  - role: 0 (Initiator)
/// I: CS procedures enabled:
/// I:  - config ID: 0
/// I:  - antenna configuration index: 0
/// I: CS Subevent result received:
/// I:  - Procedure counter: 0
/// I:  - Procedure done status: 0
/// I:  - Subevent done status: 0
/// I:  - Procedure abort reason: 0
/// I:  - Subevent abort reason: 0
/// I:  - Reference power level: -16
/// I:  - Num antenna paths: 1
/// I:  - Num steps reported: 75
/// I:  - Step data buffer length: 888 bytes
/// I: Raw step data:
///   000b0500d301327f000f0500d301327f
/// I: CS Subevent end
/// ```
///
/// The prefix before the message (`I: `, or `[time] <inf> module: `) is passed over. A
/// subevent ends when its step data is complete (the "Subevent end" line is optional). Lines
/// outside a subevent that are not understood are other log output and are skipped; inside
/// one, a line that is not a field or hex step data, a field whose value does not read, step
/// data that does not decode, or the end of the file before the step data is complete stop
/// the reading with the line named. The role comes from the configuration's `role` line; a
/// log without one is read as `defaultRole` (mode-0 steps are 5 octets for the initiator, 3 for
/// the reflector: a subevent that decodes only as the other role switches to it).
enum NCSSampleLog {
    /// Whether `bytes` look like such a log: a subevent result or the CS configuration lines.
    static func matches(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(1 << 16), as: UTF8.self)
        return head.contains("CS Subevent result received") || head.contains("CS config creation complete")
    }

    static func read(_ bytes: [UInt8], defaultRole: CSRole) -> CaptureProcedures {
        Reader(defaultRole: defaultRole).read(bytes)
    }

    /// The message of a log line: what follows `I: ` or `<inf> module: `; nil for a line
    /// without such a prefix (hex step data and other output).
    static func message(_ line: Substring) -> Substring? {
        if let r = line.range(of: "I: ") ?? line.range(of: "D: ") ?? line.range(of: "W: "), line[..<r.lowerBound].allSatisfy({ $0 == " " }) {
            return line[r.upperBound...]
        }
        for level in ["<inf> ", "<dbg> ", "<wrn> "] {
            if let r = line.range(of: level), let colon = line[r.upperBound...].range(of: ": ") {
                return line[colon.upperBound...]
            }
        }
        return nil
    }

    /// ` - key: value` → (key, value).
    static func field(_ message: Substring) -> (key: Substring, value: Substring)? {
        let m = message.drop { $0 == " " }
        guard m.hasPrefix("- "), let colon = m.firstIndex(of: ":") else { return nil }
        let key = m[m.index(m.startIndex, offsetBy: 2)..<colon]
        let value = m[m.index(after: colon)...].drop { $0 == " " }
        return (key, value)
    }

    private struct Reader: LogLineReader {
        enum Block { case none, config, enable, subevent }
        var block = Block.none
        var procedures = LoggedProcedures(origin: .ncsLog)
        let defaultRole: CSRole
        /// Role per Config_ID, from the configuration lines; N_AP per Config_ID from the ACI.
        var roles: [UInt8: CSRole] = [:]
        var configID: UInt8 = 0
        var pendingConfig: (id: UInt8, role: CSRole?) = (0, nil)
        var enabledConfig: UInt8 = 0
        /// The subevent being read and how many step data octets it declares.
        var subevent: LoggedSubevent?
        var declaredLength: Int?
        var inHex = false

        init(defaultRole: CSRole) { self.defaultRole = defaultRole }

        mutating func line(_ number: Int, _ text: Substring) throws(LogLineError) {
            if inHex, var s = subevent, let declared = declaredLength, NCSSampleLog.message(text) == nil {
                guard let octets = LogLines.hexOctets(text) else {
                    throw LogLineError(line: number, "not hex step data inside a subevent's raw step data")
                }
                s.stepData += octets
                subevent = s
                guard s.stepData.count <= declared else {
                    throw LogLineError(line: number, "\(s.stepData.count) octets of raw step data, the Step data buffer length says \(declared)")
                }
                if s.stepData.count == declared { try finish(number) }
                return
            }
            guard let msg = NCSSampleLog.message(text) else {
                // Not a log line: other output, unless a subevent is waiting for its step data.
                if subevent != nil, !text.allSatisfy({ $0 == " " }) {
                    throw LogLineError(line: number, "unexpected line inside a subevent result")
                }
                return
            }
            if let (key, value) = NCSSampleLog.field(msg) {
                try self.field(String(key), value, number)
                return
            }
            if msg.hasPrefix("CS Subevent result received") {
                if let s = subevent { throw truncated(s, at: number) }
                subevent = LoggedSubevent(role: roles[enabledConfig] ?? pendingConfig.role ?? defaultRole, line: number)
                subevent!.configID = enabledConfig
                declaredLength = nil
                block = .subevent
            } else if msg.hasPrefix("Raw step data") {
                guard subevent != nil, declaredLength != nil else {
                    throw LogLineError(line: number, "raw step data without a subevent result and its Step data buffer length")
                }
                inHex = true
            } else if msg.hasPrefix("CS Subevent end") {
                if subevent != nil { try finish(number) }
                block = .none
            } else if msg.hasPrefix("CS config creation complete") {
                if let s = subevent { throw truncated(s, at: number) }
                block = .config
                pendingConfig = (0, nil)
            } else if msg.hasPrefix("CS procedures enabled") {
                if let s = subevent { throw truncated(s, at: number) }
                block = .enable
            } else {
                if let s = subevent { throw truncated(s, at: number) }
                block = .none
            }
        }

        mutating func end(lastLine: Int) throws(LogLineError) {
            if let s = subevent {
                // A subevent whose step data is all there needs no "Subevent end" line.
                if let d = declaredLength, s.stepData.count == d { return try finish(lastLine) }
                throw truncated(s, at: lastLine)
            }
        }

        func truncated(_ s: LoggedSubevent, at line: Int) -> LogLineError {
            LogLineError(line: line, "the subevent result of line \(s.line) is cut short (\(s.stepData.count) of \(declaredLength.map(String.init) ?? "?") octets of raw step data): the log is truncated")
        }

        mutating func finish(_ line: Int) throws(LogLineError) {
            guard var s = subevent else { return }
            if let d = declaredLength, s.stepData.count < d { throw truncated(s, at: line) }
            subevent = nil
            inHex = false
            if declaredLength == nil, s.stepsReported ?? 0 != 0 {
                throw LogLineError(line: line, "the subevent result of line \(s.line) has no raw step data")
            }
            if roles[s.configID] == nil, pendingConfig.role == nil {
                // No configuration in the log: the role the step data decodes as.
                if (try? s.steps()) == nil {
                    var other = s
                    other.role = s.role == .initiator ? .reflector : .initiator
                    if (try? other.steps()) != nil { s = other; roles[s.configID] = other.role }
                }
            }
            try procedures.add(s, endLine: line)
        }

        mutating func field(_ key: String, _ value: Substring, _ line: Int) throws(LogLineError) {
            func int(_ range: ClosedRange<Int>) throws(LogLineError) -> Int {
                guard let v = LogLines.integer(value), range.contains(v) else {
                    throw LogLineError(line: line, "\(key): '\(value)' is not a number in \(range.lowerBound)...\(range.upperBound)")
                }
                return v
            }
            switch block {
            case .config:
                switch key {
                case "id":
                    pendingConfig.id = UInt8(try int(0...3))
                case "role":
                    let role: CSRole = try int(0...1) == 0 ? .initiator : .reflector
                    pendingConfig.role = role
                    roles[pendingConfig.id] = role
                default: break
                }
            case .enable:
                switch key {
                case "config ID": enabledConfig = UInt8(try int(0...3))
                default: break
                }
            case .subevent:
                guard subevent != nil else { return }
                switch key {
                case "Procedure counter": subevent!.procedureCounter = UInt16(try int(0...65535))
                case "Config ID", "config ID": subevent!.configID = UInt8(try int(0...3))
                case "Procedure done status":
                    guard let v = ProcedureDoneStatus(rawValue: UInt8(try int(0...15))) else {
                        throw LogLineError(line: line, "Procedure done status \(value) is not 0, 1 or 15")
                    }
                    subevent!.procedureDoneStatus = v
                case "Subevent done status":
                    guard let v = SubeventDoneStatus(rawValue: UInt8(try int(0...15))) else {
                        throw LogLineError(line: line, "Subevent done status \(value) is not 0, 1 or 15")
                    }
                    subevent!.subeventDoneStatus = v
                case "Procedure abort reason", "Subevent abort reason":
                    let v = UInt8(try int(0...15))
                    let procedure = key.hasPrefix("Procedure")
                    let octet = procedure ? (subevent!.abortReasons.octet & 0xF0) | v : (subevent!.abortReasons.octet & 0x0F) | v << 4
                    guard let reasons = try? AbortReasons(octet: octet) else {
                        throw LogLineError(line: line, "\(key) \(value) is not a defined reason")
                    }
                    subevent!.abortReasons = reasons
                case "Reference power level": subevent!.referencePowerLevel = Int8(try int(-128...127))
                case "Frequency compensation":
                    let v = try int(-32768...65535)
                    // A raw 0xC000 ("not available") or a signed value in 0.01 ppm.
                    subevent!.frequencyCompensation = v == 0xC000 ? 0xC000 : (LoggedSubevent.frequencyCompensation(v) ?? 0xC000)
                case "Num antenna paths": subevent!.antennaPaths = try int(0...4)
                case "Num steps reported": subevent!.stepsReported = try int(0...160)
                case "Step data buffer length":
                    let n = try int(0...(1 << 20))
                    declaredLength = n
                    if n == 0 { try finish(line) }
                default: break
                }
            case .none:
                break
            }
        }
    }
}
