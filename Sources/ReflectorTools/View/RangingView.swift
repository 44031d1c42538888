import Foundation
import LiveView
import RangingEstimation
import ToolJSON

/// A ranging command's live view: the server (`LiveView`) with this tool's page, and what the
/// command publishes to it as the run goes: the set-up once, each procedure's row exactly as
/// its JSON Lines record (the same `JSONWriter` call, so the same octets) and its tones for
/// the plots, then the summary. Everything is published from the command's own thread and
/// returns at once (the server's queues are bounded and drop the oldest for a slow page).
///
/// Tones are published at most every `tonesInterval` seconds of wall time, and always for
/// the last procedure: a board ranges at tens of procedures a second, each with its plots,
/// but loopback runs thousands a second, faster than anyone reads a plot, and computing and
/// sending each one's plots would slow the run the page is watching.
final class RangingView {
    /// How many of each event a page that opens late is given: every row of a long run, the
    /// plots of the last procedures, the one set-up and summary.
    static let historySizes = ["setup": 1, "map": 1, "status": 100, "procedure": 20_000, "tones": 100, "summary": 1]
    /// Loopback's and the boards' pace for plots; a replay takes 0.
    static let tonesInterval = 0.020

    let server: LiveViewServer
    let hold: Bool
    let tonesInterval: Double
    private var lastTones = -Double.infinity
    /// The last procedure whose tones were skipped, to publish when the run ends.
    private var skipped: (() -> Void)?

    /// Starts serving when `options` ask for a view (nil otherwise) and says where on stderr.
    static func start(_ options: ViewOptions, tonesInterval: Double = tonesInterval) throws(ToolError) -> RangingView? {
        guard let address = options.address else { return nil }
        let server: LiveViewServer
        do {
            var configuration = LiveViewServer.Configuration(historySizes: historySizes)
            configuration.queueCapacity = 256
            server = try LiveViewServer(listeningOn: address, page: LiveViewPage.load(), configuration: configuration)
        } catch {
            throw .usage("--view \(address.authority): \(error)")
        }
        StopSignal.install()
        if !address.isLoopback {
            say("serving on \(server.address.authority), which other machines can reach, not only this one")
        }
        say(server.url)
        return RangingView(server: server, hold: options.hold, tonesInterval: tonesInterval)
    }

    private init(server: LiveViewServer, hold: Bool, tonesInterval: Double) {
        self.server = server
        self.hold = hold
        self.tonesInterval = tonesInterval
    }

    /// Ctrl-C (or SIGTERM) came: the run should end.
    var interrupted: Bool { StopSignal.requested }

    /// The set-up panel: a title and lines of text (the command's header, the configuration).
    func setup(command: String, lines: [String]) {
        setupCommand = command
        setupSections = [("", lines)]
        publishSetup()
    }

    /// A part of the set-up learnt later (what a link agreed), shown after the command's own
    /// lines; a section given again (the next link) replaces its earlier text.
    func setup(section: String, lines: [String]) {
        if let i = setupSections.firstIndex(where: { $0.name == section }) {
            setupSections[i].lines = lines
        } else {
            setupSections.append((section, lines))
        }
        publishSetup()
    }

    private var setupCommand = ""
    private var setupSections: [(name: String, lines: [String])] = []

    private func publishSetup() {
        let text = setupSections.map(\.lines).filter { !$0.isEmpty }.map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
        let command = setupCommand
        server.publish("setup", Self.json { j in
            j.object { j in
                j.field("command", command)
                j.field("text", text)
            }
        })
    }

    /// A status line of the command (connected, paired, a note on the reflector, a lost link).
    func status(_ text: String) {
        server.publish("status", Self.json { j in j.object { j in j.field("text", text) } })
    }

    /// One procedure: `row` writes its JSON Lines record; the tones go to the plots (none
    /// when there are none).
    func procedure(row: (inout JSONWriter) -> Void, tones: ToneSet, truth: Double?, estimate: Double?) {
        procedure(row: row, tones: tones) { ProcedureView(tones: tones, truth: truth, estimate: estimate) }
    }

    /// A record with no plots (a nearby update, a DL-TDoA fix).
    func record(_ row: (inout JSONWriter) -> Void) { procedure(row: row, tones: ToneSet(paths: []), truth: nil, estimate: nil) }

    /// The same with the plots' view made by `plots` (when they are sent, not before).
    func procedure(row: (inout JSONWriter) -> Void, tones: ToneSet, plots: @escaping () -> ProcedureView) {
        let id = server.publish("procedure", Self.json(row))
        guard !tones.paths.allSatisfy(\.isEmpty) else { return }
        let send = { [server] in
            let view = plots()
            server.publish("tones", Self.json { view.json(procedureID: id, &$0) })
        }
        let now = Date.timeIntervalSinceReferenceDate
        if now - lastTones >= tonesInterval {
            lastTones = now
            skipped = nil
            send()
        } else {
            skipped = send
        }
    }

    /// The summary line (`text`, as the command prints it) and its JSON record.
    func summary(text: String, json: (inout JSONWriter) -> Void) {
        skipped?()
        skipped = nil
        server.publish("summary", Self.json { j in
            j.object { j in
                j.field("text", text)
                j.key("json")
                json(&j)
            }
        })
    }

    /// The run is over: with `--view-hold`, and unless interrupted, serves on until Ctrl-C
    /// (after flushing `output`, so what the run printed is out first); then stops the server,
    /// giving every page what is queued.
    func finish(output: CommandOutput) {
        output.flush()
        if hold && !interrupted {
            Self.say("serving \(server.url) until Ctrl-C")
            while !StopSignal.requested { usleep(50_000) }
        }
        server.stop()
    }

    static func json(_ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var w = JSONWriter()
        body(&w)
        return w.bytes
    }

    /// A line on stderr: `view: ...`.
    static func say(_ text: String) {
        FileHandle.standardError.write(Data("view: \(text)\n".utf8))
    }
}
