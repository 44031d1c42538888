import Foundation
import HCITransport
import ReflectorFirmware

/// `reflector-emu estimate`: distances per CS procedure from btsnoop captures of HCI traffic.
public enum EstimateCommand {
    public static let help = """
        usage: reflector-emu estimate CAPTURE.btsnoop [--reflector REFLECTOR.btsnoop] [--ipt | --no-ipt]
                                      [--estimator kay|ls|ifft|esprit] [--json]

        Reads the LE CS Subevent Result and Continue events of a btsnoop capture (datalink 1001 or
        1002, recorded by this tool or by a host) and prints one distance per CS procedure.

        The capture's LE CS Config Complete gives the role (without one, the step data is read as
        the initiator's) and inline PCT transfer (CS_Enhancements_1 bit 0); its LE CS Procedure
        Enable Complete gives the antenna paths. With inline PCT the initiator's capture is enough;
        without it each tone is initiator PCT x reflector PCT, so the reflector's capture is needed
        and its procedures are paired with the initiator's by Config_ID and procedure counter.

          --reflector FILE   the reflector's capture of the same procedures
          --ipt, --no-ipt    override whether inline PCT transfer was used
          --estimator NAME   kay (default; Kay phase difference), ls (least-squares phase slope),
                             ifft (IFFT earliest peak), esprit (super-resolution)
          --json             one JSON object per procedure and line: procedure_counter,
                             distance_m (null when there is none, with a reason), quality, method

        A procedure without a distance (too few good tones, or no reflector data without inline
        PCT) is reported with the reason. A capture that is truncated or malformed is reported up
        to the bad spot; the error, naming its byte offset, then goes to stderr and the exit status
        is 2. Exit status 0 means every capture was read to its end.

        """

    /// What the command prints: `output` (to stdout) and, when a capture was truncated or
    /// malformed, the error to report after it (one line, exit status 2).
    public struct Result: Sendable, Equatable {
        public var output: String
        public var error: ToolError?
    }

    struct Options {
        var capture: String?
        var reflector: String?
        var inlinePCT: Bool?
        var estimator = EstimatorChoice.kay
        var json = false
    }

    /// Runs the command. Throws for bad arguments and unreadable files (nothing to report);
    /// returns what it could report together with the first capture problem otherwise.
    public static func run(_ args: [String]) throws(ToolError) -> Result {
        var o = Options()
        var i = 0
        func value(_ flag: String) throws(ToolError) -> String {
            i += 1
            guard i < args.count else { throw .usage("estimate: \(flag) needs a value") }
            return args[i]
        }
        while i < args.count {
            let a = args[i]
            switch a {
            case "--reflector": o.reflector = try value(a)
            case "--ipt", "--no-ipt":
                let v = a == "--ipt"
                if let other = o.inlinePCT, other != v { throw .usage("estimate: --ipt and --no-ipt exclude each other") }
                o.inlinePCT = v
            case "--estimator":
                let v = try value(a)
                guard let e = EstimatorChoice(rawValue: v) else {
                    throw .usage("estimate: unknown estimator '\(v)'; one of \(EstimatorChoice.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                o.estimator = e
            case "--json": o.json = true
            case "-h", "--help": return Result(output: help, error: nil)
            default:
                guard !a.hasPrefix("-") || a == "-" else { throw .usage("estimate: unknown option '\(a)' (see reflector-emu estimate --help)") }
                guard o.capture == nil else { throw .usage("estimate: one capture expected, found '\(o.capture!)' and '\(a)' (the reflector's goes after --reflector)") }
                o.capture = a
            }
            i += 1
        }
        guard let capturePath = o.capture else { throw .usage("estimate: a capture file is required (see reflector-emu estimate --help)") }
        let capture = try read(capturePath, defaultRole: .initiator)
        let reflector = try o.reflector.map { (path) throws(ToolError) in try read(path, defaultRole: .reflector) }
        let estimates = ProcedureEstimation.estimates(capture, reflector: reflector, inlinePCT: o.inlinePCT, estimator: o.estimator)
        var output = ""
        for e in estimates { output += (o.json ? e.json : e.text) + "\n" }
        var problems: [String] = []
        if let p = capture.firstProblem { problems.append(message(capturePath, p, capture)) }
        if let path = o.reflector, let r = reflector, let p = r.firstProblem {
            problems.append(message(path, p, r))
        }
        return Result(output: output, error: problems.isEmpty ? nil : .badFile(problems.joined(separator: "; ")))
    }

    /// Reads a capture file; only a file that cannot be read at all throws.
    static func read(_ path: String, defaultRole: CSRole) throws(ToolError) -> CaptureProcedures {
        do {
            return CaptureProcedures(try BTSnoopReader.parseFile(atPath: path), defaultRole: defaultRole)
        } catch {
            throw .badFile("\(path): cannot read the file")
        }
    }

    /// `FILE: byte offset N: what; K procedures before it[; M more problems after it]`.
    static func message(_ path: String, _ problem: CaptureProblem, _ capture: CaptureProcedures) -> String {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var s = "\(path): \(problem)"
        if problem.offset >= BTSnoopFileHeader.length {
            s += "; \(plural(capture.procedures.filter { $0.offset < problem.offset }.count, "procedure")) before it"
        }
        if capture.problems.count > 1 { s += "; \(plural(capture.problems.count - 1, "more problem")) after it" }
        return s
    }
}
