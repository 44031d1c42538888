import ReflectorFirmware
import WireFormat

/// One side's subevent as a vendor's log prints it: the LE CS Subevent Result fields the log
/// has (Core 6.0 Vol 4 Part E §7.7.65.44) and the raw Step_Data octets, before they are taken
/// apart. Fields a log does not print keep the spec's "not available" value
/// (Frequency_Compensation 0xC000, Reference_Power_Level 0x7F).
struct LoggedSubevent: Sendable, Equatable {
    var role: CSRole
    var configID: UInt8 = 0
    var procedureCounter: UInt16 = 0
    /// The 15-bit field as the event carries it.
    var frequencyCompensation: UInt16 = 0xC000
    var referencePowerLevel: Int8 = 0x7F
    var procedureDoneStatus: ProcedureDoneStatus = .complete
    var subeventDoneStatus: SubeventDoneStatus = .complete
    var abortReasons: AbortReasons = .none
    var antennaPaths: Int = 1
    /// Num_Steps_Reported, when the log prints it.
    var stepsReported: Int?
    var stepData: [UInt8] = []
    /// The line the subevent starts on (1-based).
    var line: Int

    init(role: CSRole, line: Int) {
        self.role = role
        self.line = line
    }

    /// Frequency_Compensation from a signed value in 0.01 ppm, as logs print it.
    static func frequencyCompensation(_ value: Int) -> UInt16? {
        guard (-16384...16383).contains(value) else { return nil }
        return UInt16(bitPattern: Int16(value)) & 0x7FFF
    }

    /// The steps of `stepData`, each `Step_Mode | Step_Channel | Step_Data_Length | Step_Data`
    /// read as `role` reports them with N_AP tones; the number read must be `stepsReported`
    /// when the log gives it. Throws a one-line description of what is wrong.
    func steps() throws(LogLineError) -> [SubeventStep] {
        guard (1...4).contains(antennaPaths) || stepData.isEmpty else {
            throw LogLineError(line: line, "Num_Antenna_Paths = \(antennaPaths) is not 1 to 4")
        }
        let context = StepDataContext(role: role, antennaPaths: antennaPaths)
        var r = ByteReader(stepData)
        var steps: [SubeventStep] = []
        while !r.isAtEnd {
            let at = r.offset
            do {
                steps.append(try SubeventStep.decode(context: context, from: &r))
            } catch {
                throw LogLineError(line: line, "step \(steps.count) (step data octet \(at)): \(CaptureProblem.describe(error))")
            }
        }
        if let n = stepsReported, n != steps.count {
            throw LogLineError(line: line, "the step data holds \(steps.count) steps, Num_Steps_Reported says \(n)")
        }
        return steps
    }

    /// The subevent as the event would carry it.
    func result(steps: [SubeventStep]) -> LECSSubeventResult {
        LECSSubeventResult(connectionHandle: 0, configID: configID, startACLConnectionEventCounter: 0, procedureCounter: procedureCounter,
                           frequencyCompensation: frequencyCompensation, referencePowerLevel: referencePowerLevel,
                           procedureDoneStatus: procedureDoneStatus, subeventDoneStatus: subeventDoneStatus, abortReasons: abortReasons,
                           numAntennaPaths: UInt8(truncatingIfNeeded: antennaPaths), steps: steps)
    }
}

/// What is wrong with a vendor's log, and on which line (1-based).
struct LogLineError: Error, Sendable, Equatable {
    var line: Int
    var message: String

    init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    var problem: CaptureProblem { CaptureProblem(line: line, message: message) }
}
