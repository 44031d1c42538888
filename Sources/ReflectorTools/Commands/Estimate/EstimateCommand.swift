import CaptureEstimation
import Captures
import HCITransport
import ReflectorFirmware
import RangingEstimation
import ToolFiles
import ToolJSON

/// `reflector-emu estimate`: distances per CS procedure from captures of HCI traffic (btsnoop,
/// pcap, pcapng; a phone's RAS session included) and from vendors' step-data logs.
public enum EstimateCommand: Command {
    public static let name = "estimate"
    public static let summary = ["estimate the distance of every CS procedure in a btsnoop capture of",
                                 "HCI traffic (recorded by this tool or by a real host)"]

    public static let help = HelpText(
        usage: """
            usage: reflector-emu estimate CAPTURE [--reflector REFLECTOR] [--ipt | --no-ipt]
                                          [--estimator ml|kay|ls|ifft|esprit] [--connection HANDLE] [--json]
                                          [--calibration FILE] [--channels all|even|odd] [--path-distances]
                                          [--plot FILE.svg [--plot-procedure N]] [--view [ADDR:]PORT [--view-hold]]
                   reflector-emu estimate CAPTURE --calibrate DISTANCE_M|paths --out FILE.json [--estimator NAME]
                                          [--channels all|even|odd] [...]
            """,
        about: """
            Reads the LE CS Subevent Result and Continue events of a capture of HCI traffic and
            prints one distance per CS procedure. The format is chosen by content: btsnoop
            (datalinks 1001, 1002 and BlueZ's monitor 2001), pcap (either byte order, micro- or
            nanoseconds; link types 187, 201, 254), pcapng (any number of interfaces), the nRF
            Connect SDK samples' step-data log (one side per file), Silicon Labs' step-data
            dump and their parser's JSON (both sides in one file), and the log Silicon Labs'
            tools capture from the initiator's serial port (both sides, from their ranging
            library's input; the library's own distance is printed beside ours). Tones a
            controller rates "quality unavailable" (3) are judged by the estimator itself rather
            than dropped.

            The capture's LE CS Config Complete gives the role (without one, the step data is read as
            the initiator's) and inline PCT transfer (CS_Enhancements_1 bit 0); its LE CS Procedure
            Enable Complete gives the antenna paths. With inline PCT the initiator's capture is enough;
            without it each tone is initiator PCT x reflector PCT: the reflector's step data comes from
            the reflector's capture (--reflector; paired by Config_ID and procedure counter) or from the
            Ranging Service traffic in the phone's own capture (paired by connection, Config_ID and
            ranging counter; lost, resent and overwritten segments are reported per procedure).

            --calibrate learns the board's calibration from the capture's procedures instead of
            printing distances: at a known distance (DISTANCE_M, metres) each antenna path's delay
            and the RTT offset; at any distance ("paths") the paths' delays relative to their
            median. It prints what it learned and writes it to --out; --calibration FILE takes
            such a file (or a board profile holding one) off every procedure's tones and round
            trips ("calibration" in docs/estimators.md).
            """,
        notes: """
            A procedure without a distance (too few good tones, or no reflector data without inline
            PCT) is reported with the reason. A file that is truncated or malformed is reported up
            to the bad spot; the error, naming its byte offset (a log's line), then goes to stderr
            and the exit status is 2. Exit status 0 means every file was read to its end.
            """)

    public struct Options {
        public var capture: String?
        public var reflector: String?
        public var inlinePCT: Bool?
        public var estimator = EstimatorChoice.default
        public var json = false
        public var connection: UInt16?
        public var plotPath: String?
        public var plotProcedure: UInt16?
        /// `--view [ADDR:]PORT`, `--view-hold`: the capture replayed to a live page.
        public var view = ViewOptions()
        /// `--calibration FILE`: a calibration file or a board profile with one.
        public var calibrationPath: String?
        /// `--calibrate DISTANCE_M|paths` and `--out FILE`.
        var calibrate: EstimateCalibration.Target?
        public var outPath: String?
        /// `--channels`: only these channels' tones.
        public var channels = ChannelSubset.all
        /// `--path-distances`: each antenna path's distance under each procedure's row.
        public var pathDistances = false
        public init() {}
    }

    public static var options: OptionTable<Options> {
        OptionTable(defaults: Options(), options: [
            .value(\.reflector, "--reflector", "FILE", .text, help: "the reflector's capture of the same procedures"),
            .flags(["--ipt", "--no-ipt"], label: "--ipt, --no-ipt", help: "override whether inline PCT transfer was used") { o, flag throws(ToolError) in
                let v = flag == "--ipt"
                if let other = o.inlinePCT, other != v { throw .usage("estimate: --ipt and --no-ipt exclude each other") }
                o.inlinePCT = v
            },
            .value(\.estimator, "--estimator", "NAME", .choice(EstimatorChoice.self), help: "ml (default; multipath fit), kay (Kay phase difference), ls (least-squares",
                   "phase slope), ifft (IFFT earliest peak), esprit (super-resolution)"),
            .value(\.plotPath, "--plot", "FILE.svg", .text, help: "distance per procedure; one procedure's phase, amplitude per",
                   "channel and impulse response"),
            .value(\.plotProcedure, "--plot-procedure", "N", .integer(UInt16(0)...UInt16.max), help: "the procedure counter --plot shows (default: the first",
                   "with a distance)"),
            .value(\.connection, "--connection", "HANDLE", .integer(UInt16(0)...0x0EFF), help: "only the procedures of this connection handle"),
            .json(\.json, help: "one JSON object per procedure and line: procedure_counter,",
                  "distance_m (null when there is none, with a reason), quality, method,",
                  "connection, config_id, source, ras when the tones came from RAS, and",
                  "vendor_distance_m when the file has the vendor's own distance"),
            .value(\.calibrationPath, "--calibration", "FILE", .text, help: "a board calibration (a calibration file or a board profile",
                   "with one) taken off every procedure: its paths' delays and RTT offset"),
            .value("--calibrate", "DISTANCE_M|paths", EstimateCalibration.targetValue, help: "learn the board's calibration instead: at a known distance",
                   "(metres) or, for the paths' relative delays, at any (paths)") { o, t in o.calibrate = t },
            .value(\.outPath, "--out", "FILE.json", .text, help: "where --calibrate writes the calibration"),
            .value(\.channels, "--channels", "all|even|odd", .choice(ChannelSubset.self), help: "only the tones of even or odd channel indices (default all):",
                   "learn on one half of a procedure, test on the other"),
            .flag(\.pathDistances, "--path-distances", help: "each antenna path's own distance under each procedure's row"),
            .view(\.view),
            .viewHold(\.view),
        ], positional: Positional("CAPTURE") { o, path throws(ToolError) in
            if let first = o.capture {
                throw .usage("estimate: one capture expected, found '\(first)' and '\(path)' (the reflector's goes after --reflector)")
            }
            o.capture = path
        }, helpColumn: 19, validate: { o throws(ToolError) in
            guard o.capture != nil else { throw .usage("estimate: a capture file is required (see reflector-emu estimate --help)") }
            if o.calibrate != nil {
                guard o.outPath != nil else { throw .usage("estimate: --calibrate needs --out FILE.json, where the calibration goes") }
                guard o.calibrationPath == nil else { throw .usage("estimate: --calibrate learns from the capture as it is; leave out --calibration") }
                guard !o.json, o.plotPath == nil, o.view.address == nil else { throw .usage("estimate: --calibrate prints the calibration; leave out --json, --plot and --view") }
            } else if o.outPath != nil {
                throw .usage("estimate: --out is where --calibrate writes; give --calibrate DISTANCE_M|paths")
            }
            if o.pathDistances && o.json { throw .usage("estimate: --path-distances prints text rows; leave out --json") }
        })
    }

    /// Prints what it could estimate; when a capture was truncated or malformed, the outcome
    /// carries the problem (status 2) after the procedures before it. Throws for unreadable files.
    public static func run(_ o: Options, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        let capturePath = o.capture!
        let capture = try read(capturePath, defaultRole: .initiator)
        let reflector = try o.reflector.map { (path) throws(ToolError) in try read(path, defaultRole: .reflector) }
        let calibration = try o.calibrationPath.map { (path) throws(ToolError) in try BoardCalibrationFile.read(path: path).calibration } ?? .none
        var estimates = ProcedureEstimation.estimates(capture, reflector: reflector, inlinePCT: o.inlinePCT, estimator: o.estimator,
                                                      keepTones: o.plotPath != nil || o.view.address != nil || o.calibrate != nil || o.pathDistances,
                                                      calibration: calibration, channels: o.channels)
        if let handle = o.connection { estimates = estimates.filter { $0.connection == handle } }
        if let target = o.calibrate {
            try EstimateCalibration.learn(estimates, target: target, estimator: o.estimator, source: capturePath, path: o.outPath!, output: output)
            return capture.firstProblem.map { .failure(status: 2, ToolError.badFile(message(capturePath, $0, capture)).description) } ?? .success
        }
        if let path = o.plotPath {
            let chosen = o.plotProcedure.map { n in estimates.first { $0.procedureCounter == n } }
                ?? estimates.first { $0.distance != nil } ?? estimates.first
            if let n = o.plotProcedure, chosen == nil { throw .usage("estimate: --plot-procedure \(n): the capture has no such procedure") }
            try OutputFile.write(EstimatePlot.svg(estimates: estimates, chosen: chosen ?? nil), to: path)
        }
        for e in estimates {
            if o.json {
                output.jsonLine { e.json(&$0) }
            } else {
                output.line(e.text)
                if o.pathDistances, let line = EstimateCalibration.pathDistances(e, estimator: o.estimator) { output.line(line) }
            }
        }
        try RangingView.estimate(o, estimates)?.finish(output: output)
        var problems: [String] = []
        if let p = capture.firstProblem { problems.append(message(capturePath, p, capture)) }
        if let path = o.reflector, let r = reflector, let p = r.firstProblem {
            problems.append(message(path, p, r))
        }
        return problems.isEmpty ? .success : .failure(status: 2, ToolError.badFile(problems.joined(separator: "; ")).description)
    }

    /// Reads a capture or log (its format chosen by content); only a file that cannot be read at all throws.
    static func read(_ path: String, defaultRole: CSRole) throws(ToolError) -> CaptureProcedures {
        try CaptureReader.read(path: path, defaultRole: defaultRole)
    }

    /// `FILE: byte offset N: what; K procedures before it[; M more problems after it]`.
    static func message(_ path: String, _ problem: CaptureProblem, _ capture: CaptureProcedures) -> String {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var s = "\(path): \(problem)"
        if problem.isLine || problem.keyPath != nil || problem.offset >= BTSnoopFileHeader.length {
            s += "; \(plural(capture.procedures.filter { $0.offset < problem.offset }.count, "procedure")) before it"
        }
        if capture.problems.count > 1 { s += "; \(plural(capture.problems.count - 1, "more problem")) after it" }
        return s
    }
}
