import CaptureEstimation
import HCITransport
import PhoneEmulation
import RadioWorld
import RangingEstimation
import ReflectorFirmware
import ToolFiles
import ToolJSON

/// `reflector-emu loopback`: the phone ranging this project's reflector firmware through the
/// simulated air, through the same session API an app uses, and printing what it measured.
public enum LoopbackCommand: Command {
    public static let name = "loopback"
    public static let summary = ["range this project's reflector firmware from an emulated iPhone over a",
                                 "simulated radio channel; print distances against truth and the CRLB"]

    public static let help = HelpText(
        usage: "usage: reflector-emu loopback [options]",
        about: """
            Runs an iPhone-like initiator against the reflector firmware over a simulated radio
            channel and prints, per procedure, the true distance, the raw estimate, the smoothed
            distance an app would get and the error; then a summary against the Cramér-Rao bound.
            """)

    public static var options: OptionTable<LoopbackOptions> {
        OptionTable(defaults: LoopbackOptions(), options: [
            .value(\.startDistance, "--distance", "M", .number(0.1...149, "m"), help: "reflector distance in metres (default 3)"),
            .value("--walk", "START:END", .walk, help: "walk from START to END metres over the run") { o, walk throws(ToolError) in
                (o.startDistance, o.endDistance) = (walk.start, walk.end)
            },
            .value(\.channel, "--channel", "MODEL", .airChannel, help: "light (default: a reflection 1.5 m longer at 0.3 amplitude),",
                   "open (the same at 0.1), free, two-ray (3 m longer at 0.7),",
                   "two-ray:EXCESS_M:AMPLITUDE, tgn-b, tgn-c, tgn-d, tgn-e (IEEE 802.11n indoor profiles)"),
            .flag(\.fading, "--fading", to: true, help: "a new multipath realization every procedure (people moving",
                  "in the room); without it a still pair keeps one channel"),
            .snr(\.snrDB, help: "per-tone SNR in dB (default 20)"),
            .seed(\.seed, help: "seed of the simulation (default 1); the same seed repeats the run"),
            .value(\.antennaPaths, "--antenna-paths", "N", .integer(1...4, allowed: "1, 2, 3 or 4"),
                   help: "1-4 antenna paths (the accessory switches N antennas; default 1)"),
            .flags(["--ipt", "--ras"], label: "--ipt | --ras", help: "inline PCT transfer (default), or the reflector's PCTs over RAS") { o, flag throws(ToolError) in
                o.inlinePCT = flag == "--ipt"
            },
            .value(\.procedures, "--procedures", "N", .integer(1...1_000_000), help: "procedures to run (default 20)"),
            .value("--estimator", "NAME", .choice(EstimatorChoice.self),
                   help: "ml (multipath fit of all antenna paths, default in mode 2), kay", "(phase slope), ls, ifft, esprit (super-resolution), rtt (round-trip",
                   "timing, default in mode 1), combined (ml with rtt, default in mode 3)") { o, choice throws(ToolError) in
                (o.estimator, o.estimatorGiven) = (choice, true)
            },
            .value("--main-mode", "N", .mainMode, help: "2 (phase-based ranging, default), 1 (round-trip timing) or 3",
                   "(both in each step; the reflector's timing comes over RAS)") { o, mode throws(ToolError) in
                o.mainMode = mode
                if !o.estimatorGiven { o.estimator = LoopbackOptions.defaultEstimator(mainMode: mode) }
            },
            .value(\.rttType, "--rtt-type", "TYPE", .rttType, help: "what mode-1/3 CS_SYNC packets carry after the access address:",
                   "aa (default), sounding-32, sounding-96, random-32 ... random-128"),
            .value("--antenna-delays", "M,M,...", .antennaDelays,
                   help: "the accessory's antennas' own RF delays, metres of one-way", "distance (a generated board; default none)") { o, delays in
                o.reflectorDelays.antennas = delays
            },
            .value("--timing-delay", "M", .number(-10...10, "m"), help: "how late the accessory stamps CS_SYNC arrivals, metres",
                   "of c·time (its share of the RTT offset; default 0)") { o, delay in o.reflectorDelays.timing = delay },
            .value("--calibration", "FILE", .text, help: "a board calibration (file or board profile) taken off every",
                   "procedure before it is estimated") { o, path throws(ToolError) in
                o.calibration = try BoardCalibrationFile.read(path: path).calibration
            },
            .json(\.json, help: "JSON Lines: one object per procedure, then {\"summary\": {...}}"),
            .value(\.plotPath, "--plot", "FILE.svg", .text, help: "phase against frequency, impulse response and distance trace"),
            .value(\.btsnoopPath, "--btsnoop", "FILE", .text, help: "record the phone's HCI traffic (opens in Wireshark and btmon)"),
            .flag(\.progress, "--no-progress", to: false, help: "no progress bar on stderr"),
            .view(\.view),
            .viewHold(\.view),
        ], helpColumn: 23)
    }

    /// One procedure's line.
    public typealias Row = ProcedureRow

    public static func run(_ options: LoopbackOptions, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        _ = try simulate(options, output: output)
        return .success
    }

    /// Runs the session and writes each procedure's line as it is ready (a progress bar goes
    /// to a terminal's stderr on long runs), then the summary; returns the rows (for tests).
    /// Throws a one-line error for a session that could not start or a file that cannot be written.
    @discardableResult
    public static func simulate(_ options: LoopbackOptions, output: CommandOutput) throws(ToolError) -> [Row] {
        let setup = options.setup
        let central = CentralManager()
        let peripheral = Peripheral(name: "reflector", setup: setup)
        let recorder = SessionRecorder()
        peripheral.delegate = recorder
        central.connect(peripheral)
        peripheral.startChannelSoundingSession(ChannelSoundingSessionConfiguration(estimator: options.sessionEstimator, procedureLimit: options.procedures))
        if case .some(.some(let error)) = recorder.completion {
            try writeCapture(peripheral, options)
            throw .usage("the session did not start: \(error)")
        }
        if !options.json { output.line(LoopbackReport.header(options)) }
        var rows: [Row] = []
        var twoPathSigmas: [Double?] = []
        var rttSigmas: [Double] = []
        let timed = options.estimator == .rtt || options.estimator == .combined
        // The air (a reference) outlives the session, which ends inside the last procedure's call.
        let air = peripheral.sessionLink?.initiatorRadio.air
        var plotData: PlotInput?
        var bar = ProgressBar(total: options.progress && !options.json ? options.procedures : 0)
        let view = try RangingView.loopback(options)
        while peripheral.isSessionRunning, view?.interrupted != true {
            let before = peripheral.reportCount
            guard peripheral.processNextProcedure() else { break }
            guard peripheral.reportCount > before, let report = peripheral.lastReport else { continue }
            let truth = setup.scenario.geometry.distance(at: UInt64(report.time * 1e6))
            let row = Row(procedureCounter: report.procedureCounter, time: report.time, truth: truth, raw: report.estimate?.distance,
                          smoothed: report.smoothedDistance, quality: report.estimate?.quality,
                          pooled: report.stillEstimate == nil ? 0 : report.stillProcedures)
            rows.append(row)
            view?.procedure(row, report)
            twoPathSigmas.append(air.flatMap { twoPathSigma($0.realization, options) })
            if timed, report.roundTrips.hasTimedSteps { rttSigmas.append(rttSigma(report.roundTrips, setup)) }
            if plotData == nil, options.plotPath != nil { plotData = PlotInput(tones: report.tones, truth: truth) }
            if options.json {
                output.jsonLine { LoopbackReport.json(row, &$0) }
            } else {
                output.line(LoopbackReport.text(row))
            }
            bar.update(rows.count)
        }
        let summary = LoopbackSummary(rows: rows, snrDB: options.snrDB, antennaPaths: options.antennaPaths, twoPathSigmas: twoPathSigmas,
                                      rttSigmas: rttSigmas)
        if options.json {
            output.jsonLine { summary.json(&$0) }
        } else {
            output.line(summary.text)
        }
        view?.summary(summary)
        try writeCapture(peripheral, options)
        if let path = options.plotPath, let plotData {
            try OutputFile.write(LoopbackPlotting.svg(plotData, rows: rows, estimatorName: options.estimator.rawValue), to: path)
        }
        view?.finish(output: output)
        return rows
    }

    /// The two-path bound's σ at the realization the procedure just run met (over √N_AP: every
    /// antenna pair sees the same reflection), nil for a channel of other than two rays.
    static func twoPathSigma(_ realization: ChannelRealization, _ o: LoopbackOptions) -> Double? {
        guard let ray = realization.twoRay(), ray.reflection.magnitude > 0 else { return nil }
        let sigma = TwoPathBound.distanceStandardDeviation(snrDB: o.snrDB, excess: ray.excess, reflection: ray.reflection,
                                                          form: o.inlinePCT ? .inlinePCT : .product)
        return sigma.isFinite ? sigma / Double(o.antennaPaths).squareRoot() : nil
    }

    /// RTT's bound for a procedure's usable steps on this run's link: its SNR, PHY, RTT type, the
    /// radios' jitter and their timestamps' resolution (the field's 0.5 ns at least).
    static func rttSigma(_ times: RoundTripTimes, _ setup: LoopbackSetup) -> Double {
        let s = setup.scenario, c = setup.configuration
        return RoundTripTimeBound.distanceStandardDeviation(
            steps: times.samples.count, snrDB: s.snrDB, phy: RoundTripTimeBound.PHY(c.csSyncPHY),
            sequenceBits: c.rttType.sequenceOctets * 8, jitterSeconds: s.rttJitterNanoseconds * 1e-9,
            resolutionSeconds: max(s.rttResolutionNanoseconds, 0.5) * 1e-9)
    }

    static func writeCapture(_ p: Peripheral, _ o: LoopbackOptions) throws(ToolError) {
        guard let path = o.btsnoopPath else { return }
        let records = p.capturedHCI ?? []
        let bytes: [UInt8]
        do { bytes = try BTSnoopWriter().encodeFile(records) } catch { throw .badFile("\(path): cannot encode the capture (\(error))") }
        try OutputFile.write(bytes, to: path)
    }

    /// What the plot needs from the run's first procedure.
    struct PlotInput {
        var tones: ToneSet
        var truth: Double
    }
}

/// Collects what the session's delegate hears.
final class SessionRecorder: PeripheralDelegate {
    /// Set when the session completed: nil inside means without error.
    var completion: ChannelSoundingError??
    func peripheral(_ peripheral: Peripheral, didReceive results: ChannelSoundingProcedureResults?, error: ChannelSoundingError?) {}
    func peripheral(_ peripheral: Peripheral, didCompleteChannelSoundingSession error: ChannelSoundingError?) { completion = .some(error) }
}

extension OptionValue where T == [Double] {
    /// `--antenna-delays`: 1 to 4 comma-separated delays from −10 to 10 m (repeats allowed: two
    /// antennas may have the same delay).
    static var antennaDelays: OptionValue {
        OptionValue(allowed: "1 to 4 comma-separated delays from -10 to 10 m") { text in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard (1...4).contains(parts.count) else { return nil }
            var out: [Double] = []
            for p in parts {
                guard let d = Double(p), d.isFinite, (-10...10).contains(d) else { return nil }
                out.append(d)
            }
            return out
        }
    }
}
