import Foundation
import HCITransport
import PhoneEmulation
import ReflectorFirmware

/// `reflector-emu loopback`: the phone ranging this project's reflector firmware through the
/// simulated air, through the same session API an app uses, and printing what it measured.
public enum LoopbackCommand {
    public static let help = """
        usage: reflector-emu loopback [options]

        Runs an iPhone-like initiator against the reflector firmware over a simulated radio
        channel and prints, per procedure, the true distance, the raw estimate, the smoothed
        distance an app would get and the error; then a summary against the Cramér-Rao bound.

          --distance M           reflector distance in metres (default 3)
          --walk START:END       walk from START to END metres over the run
          --channel MODEL        light (default: a reflection 1.5 m longer at 0.3 amplitude),
                                 open (the same at 0.1), free, two-ray (3 m longer at 0.7),
                                 two-ray:EXCESS_M:AMPLITUDE, tgn-b, tgn-c, tgn-d, tgn-e (IEEE 802.11n indoor profiles)
          --snr DB               per-tone SNR in dB (default 20)
          --seed N               seed of the simulation (default 1); the same seed repeats the run
          --antenna-paths N      1-4 antenna paths (the accessory switches N antennas; default 1)
          --ipt | --ras          inline PCT transfer (default), or the reflector's PCTs over RAS
          --procedures N         procedures to run (default 20)
          --estimator NAME       kay (phase slope, default), ls, ifft, esprit (super-resolution)
          --json                 JSON Lines: one object per procedure, then {"summary": {...}}
          --plot FILE.svg        phase against frequency, impulse response and distance trace
          --btsnoop FILE         record the phone's HCI traffic (opens in Wireshark and btmon)
          --no-progress          no progress bar on stderr

        """

    /// One procedure's line.
    public struct Row: Equatable {
        public var procedureCounter: UInt16
        public var time: Double
        public var truth: Double
        public var raw: Double?
        public var smoothed: Double?
        public var quality: Double?
    }

    /// Runs the command: `emit` receives each output line as it is ready (a progress bar goes to
    /// a terminal's stderr on long runs). Returns the rows (for tests); throws a one-line error for bad input or a
    /// session that could not start.
    @discardableResult
    public static func run(_ args: [String], emit: (String) -> Void) throws(ToolError) -> [Row] {
        if args.contains("--help") || args.contains("-h") {
            emit(help)
            return []
        }
        let options = try LoopbackOptions(arguments: args)
        let setup = options.setup
        let central = CentralManager()
        let peripheral = Peripheral(name: "reflector", setup: setup)
        let recorder = SessionRecorder()
        peripheral.delegate = recorder
        central.connect(peripheral)
        peripheral.startChannelSoundingSession(ChannelSoundingSessionConfiguration(estimator: options.estimator, procedureLimit: options.procedures))
        if let error = recorder.completion ?? nil {
            try writeCapture(peripheral, options)
            throw .usage("the session did not start: \(error)")
        }
        if !options.json { emit(header(options)) }
        var rows: [Row] = []
        var plotData: PlotInput?
        var bar = ProgressBar(total: options.progress && !options.json ? options.procedures : 0)
        while peripheral.isSessionRunning {
            let before = peripheral.reportCount
            guard peripheral.processNextProcedure() else { break }
            guard peripheral.reportCount > before, let report = peripheral.lastReport else { continue }
            let truth = setup.scenario.geometry.distance(at: UInt64(report.time * 1e6))
            let row = Row(procedureCounter: report.procedureCounter, time: report.time, truth: truth, raw: report.estimate?.distance,
                          smoothed: report.smoothedDistance, quality: report.estimate?.quality)
            rows.append(row)
            if plotData == nil, options.plotPath != nil { plotData = PlotInput(tones: report.tones, truth: truth) }
            emit(options.json ? jsonLine(row) : textLine(row))
            bar.update(rows.count)
        }
        let summary = Summary(rows: rows, snrDB: options.snrDB, antennaPaths: options.antennaPaths)
        emit(options.json ? summary.json : summary.text)
        try writeCapture(peripheral, options)
        if let path = options.plotPath, let plotData {
            try write(LoopbackPlotting.svg(plotData, rows: rows, estimatorName: options.estimatorName), to: path)
        }
        return rows
    }

    static func header(_ o: LoopbackOptions) -> String {
        let place = o.endDistance.map { "walking from \(f(o.startDistance, 2)) m to \(f($0, 2)) m" } ?? "at \(f(o.startDistance, 2)) m"
        return "reflector-emu loopback: reflector \(place), channel \(o.channelName), SNR \(f(o.snrDB, 1)) dB, "
            + "\(o.inlinePCT ? "inline PCT" : "RAS"), \(o.antennaPaths) antenna path\(o.antennaPaths == 1 ? "" : "s"), "
            + "\(o.procedures) procedures, estimator \(o.estimatorName), seed \(o.seed)\n"
            + "procedure   time_s   true_m    raw_m  smoothed_m   error_m"
    }

    static func textLine(_ r: Row) -> String {
        let raw = r.raw.map { f($0, 3) } ?? "-"
        let smoothed = r.smoothed.map { f($0, 3) } ?? "-"
        let err = r.raw.map { ($0 - r.truth >= 0 ? "+" : "") + f($0 - r.truth, 3) } ?? "no distance"
        return pad(String(r.procedureCounter), 9) + pad(f(r.time, 3), 9) + pad(f(r.truth, 3), 9) + pad(raw, 9) + pad(smoothed, 12) + pad(err, 10)
    }

    static func jsonLine(_ r: Row) -> String {
        "{\"procedure_counter\": \(r.procedureCounter), \"time_s\": \(f(r.time, 6)), \"true_distance_m\": \(f(r.truth, 4)), "
            + "\"distance_m\": \(r.raw.map { f($0, 4) } ?? "null"), \"smoothed_distance_m\": \(r.smoothed.map { f($0, 4) } ?? "null"), "
            + "\"quality\": \(r.quality.map { f($0, 3) } ?? "null")}"
    }

    static func writeCapture(_ p: Peripheral, _ o: LoopbackOptions) throws(ToolError) {
        guard let path = o.btsnoopPath else { return }
        let records = p.capturedHCI ?? []
        let bytes: [UInt8]
        do { bytes = try BTSnoopWriter().encodeFile(records) } catch { throw .badFile("\(path): cannot encode the capture (\(error))") }
        try write(bytes, to: path)
    }

    static func write(_ text: String, to path: String) throws(ToolError) { try write(Array(text.utf8), to: path) }

    static func write(_ bytes: [UInt8], to path: String) throws(ToolError) {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw .badFile("\(path): cannot write the file") }
    }

    static func f(_ v: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", v) }

    static func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s : String(repeating: " ", count: width - s.count) + s }
}

/// Collects what the session's delegate hears.
final class SessionRecorder: PeripheralDelegate {
    /// Set when the session completed: nil inside means without error.
    var completion: ChannelSoundingError??
    func peripheral(_ peripheral: Peripheral, didReceive results: ChannelSoundingProcedureResults?, error: ChannelSoundingError?) {}
    func peripheral(_ peripheral: Peripheral, didCompleteChannelSoundingSession error: ChannelSoundingError?) { completion = .some(error) }
}
