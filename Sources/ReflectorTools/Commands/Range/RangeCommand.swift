import BLEHost
import CaptureEstimation
import Foundation
import HCITransport
import ReflectorFirmware
import RangingEstimation
import SerialTransport
import ToolFiles
import ToolJSON

/// `reflector-emu range`: the iPhone-like initiator on a real CS controller over HCI UART
/// (or a served board's pty): check the board, find the reflector, connect, encrypt, run CS
/// and print each procedure's distance until stopped. Exit status 0 done or stopped, 1 the
/// reflector went away with `--once`, 2 could not range (port, board, set-up).
public enum RangeCommand: Command {
    public static let name = "range"
    public static let summary = ["range a reflector from a real board (HCI over UART) as an iPhone does;",
                                 "print each procedure's distance"]

    public static let help = HelpText(
        usage: """
            usage: reflector-emu range (--port DEVICE [--baud N] [--rtscts] | --pty LINK)
                                       [--address ADDR | --name NAME | --service UUID] [options]
            """,
        about: """
            Drives the CS controller on DEVICE as the initiator, as an iPhone does: checks it can
            be one (as 'check' asks), scans for the reflector (by address, by name, or the first
            advertising the Ranging Service 0x185B or --service UUID), connects, pairs with LE
            Secure Connections (or encrypts with --bond-ltk; a reconnection uses the bond it
            made, kept across runs with --bonds FILE), sets Channel Sounding up and prints each
            procedure's distance, smoothed distance and quality until SIGINT or --procedures;
            then a summary. With inline PCT when the reflector supports it; otherwise (or with
            --ras) the reflector's results come from its Ranging Service over GATT (real-time, or
            on demand). A reflector an iPhone would refuse is ranged with a note (--require-ios
            refuses it). A reflector that disconnects is found again (--once exits instead).
            Status lines go to stderr. Exit status: 0 done, 1 the reflector went away (--once), 2
            could not range.
            """)

    public struct Options {
        public var board = BoardLineOptions()
        public var address: UInt64?
        public var name: String?
        public var service: UInt16?
        public var ltk: [UInt8]?
        public var bonds: String?
        public var procedures: Int?
        /// LE CS Set Procedure Parameters' Max_Procedure_Count (0: until disabled).
        public var procedureCount = 0
        public var once = false
        public var alwaysRAS = false
        public var passkey: UInt32?
        public var requireIOS = false
        public var estimator = EstimatorChoice.default
        var estimatorGiven = false
        /// The main mode the phone configures: 2 (PBR), 1 (RTT) or 3 (both in each step).
        public var mainMode = CSMode.mode2
        public var rttType = RTTType.accessAddressOnly
        /// `--calibration FILE`: the board's calibration (a file or a board profile with one).
        public var calibration: BoardCalibration?
        public var truth: Double?
        public var json = false
        public var plot: String?
        public var scanTimeout = 30
        public var progress = true
        /// `--view [ADDR:]PORT`, `--view-hold`: the live page.
        public var view = ViewOptions()
        public init() {}

        /// Which advertiser to connect to: the address, the name, or the service (0x185B by default).
        public var filter: AdvertiserFilter {
            if let address { return AdvertiserFilter(address: address) }
            if let name { return AdvertiserFilter(name: name) }
            return AdvertiserFilter(serviceUUID16: service ?? 0x185B)
        }

        var lookingFor: String {
            if let address { return "the reflector at \(HexText.address(address))" }
            if let name { return "a reflector named '\(name)'" }
            return "a reflector advertising service 0x\(String(format: "%04X", service ?? 0x185B))"
        }
    }

    public static var options: OptionTable<Options> {
        func target(_ o: Options) throws(ToolError) {
            guard o.address == nil && o.name == nil && o.service == nil else { throw .usage("range: give at most one of --address, --name and --service") }
        }
        return OptionTable(defaults: Options(), options: BoardLineOptions.options(name, at: \.board) + [
            .value("--address", "ADDR", OptionValue(allowed: "six hex octets like F0:F1:F2:F3:F4:F6") { HexText.address(parsing: $0) },
                   help: "connect to the reflector at this address (public or random)") { o, v throws(ToolError) in
                try target(o)
                o.address = v
            },
            .value("--name", "NAME", .text, help: "connect to the first reflector advertising this name") { o, v throws(ToolError) in
                try target(o)
                o.name = v
            },
            .value("--service", "UUID", OptionValue(allowed: "a 16-bit UUID in hex like 185B") { v in
                v.utf8.count == 4 ? UInt16(v, radix: 16) : nil
            }, help: "connect to the first reflector listing this 16-bit service", "(default 185B, the Ranging Service)") { o, v throws(ToolError) in
                try target(o)
                o.service = v
            },
            .value(\.ltk, "--bond-ltk", "HEX32", OptionValue(allowed: "32 hex digits (16 octets, as HCI carries the key)") { v in
                v.count == 32 ? HexText.octets(parsing: v) : nil
            }, help: "encrypt with this bond's long-term key instead of pairing"),
            .value("--bonds", "FILE", .text, help: "keep bonds in FILE across runs (created mode 0600; default:", "bonds last one run)") { o, v throws(ToolError) in o.bonds = v },
            .value("--passkey", "NNNNNN", .integer(0...999_999, allowed: "six digits, 000000 to 999999"),
                   help: "the passkey the reflector shows (else asked on the terminal)") { o, v throws(ToolError) in o.passkey = UInt32(v) },
            .value(\.procedures, "--procedures", "N", .integer(1...1_000_000), help: "stop after N procedures (default: run until SIGINT)"),
            .value(\.procedureCount, "--procedure-count", "N", .integer(0...0xFFFF, allowed: "0 (until disabled) to 65535"),
                   help: "Max_Procedure_Count the controller is asked for (default 0: until", "disabled; a controller that runs none then, such as RootCanal 1.13,",
                   "needs a count)"),
            .flag(\.once, "--once", help: "exit (status 1) when the reflector disconnects, instead of reconnecting"),
            .flag(\.alwaysRAS, "--ras", help: "no inline PCT: take the reflector's results from its Ranging Service"),
            .flag(\.requireIOS, "--require-ios", help: "refuse a reflector an iPhone would refuse (Bluetooth 6.3, inline PCT,",
                  "T_FCS >= 100 us), instead of ranging it with a note"),
            .value("--estimator", "NAME", .choice(EstimatorChoice.self),
                   help: "ml (multipath fit, default in mode 2), kay (phase slope), ls, ifft,", "esprit, rtt (round-trip timing, default in mode 1), combined (ml",
                   "with rtt, default in mode 3)") { o, choice throws(ToolError) in
                (o.estimator, o.estimatorGiven) = (choice, true)
            },
            .value("--main-mode", "N", .mainMode, help: "2 (phase-based ranging, default), 1 (round-trip timing) or 3",
                   "(both; the reflector's results then come over RAS)") { o, mode throws(ToolError) in
                o.mainMode = mode
                if !o.estimatorGiven { o.estimator = LoopbackOptions.defaultEstimator(mainMode: mode) }
            },
            .value(\.rttType, "--rtt-type", "TYPE", .rttType, help: "what mode-1/3 CS_SYNC packets carry: aa (default), sounding-32,", "sounding-96, random-32 ... random-128"),
            .value("--calibration", "FILE", .text, help: "the board's calibration (a calibration file or a board profile",
                   "with one), taken off every procedure") { o, path throws(ToolError) in
                o.calibration = try BoardCalibrationFile.read(path: path).calibration
            },
            .value(\.truth, "--truth", "M", .number(0...1000, "m"), help: "the true distance: adds true_m and error_m columns"),
            .json(\.json, help: "JSON Lines: one object per procedure, a record per link, procedure or", "board set-up lost (docs/faults.md), then {\"summary\": {...}}"),
            .value(\.plot, "--plot", "FILE.svg", .text, help: "the first procedure's phase and impulse response, and every",
                   "procedure's distance (against --truth when given)"),
            .value(\.scanTimeout, "--scan-timeout", "S", .integer(1...3600, allowed: "seconds from 1 to 3600"),
                   help: "how long to look for the reflector (default 30)"),
            .flag(\.progress, "--no-progress", to: false, help: "no status line on a terminal's stderr"),
            .view(\.view),
            .viewHold(\.view),
        ], helpColumn: 20, validate: { o throws(ToolError) in
            try o.board.validate(name)
            guard o.ltk == nil || o.bonds == nil else { throw .usage("range: give at most one of --bond-ltk and --bonds") }
        })
    }

    public static func run(_ o: Options, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        output.flushesEachLine = true
        let path = o.board.path ?? ""
        var report = RangeReport(options: o, output: output)
        var store: BondFile?
        if let file = o.bonds {
            switch BondFile.load(file, for: .phone) {
            case .success(let loaded):
                store = loaded.file
                if let note = loaded.note { report.status(note) }
            case .failure(let e): return .failure(status: 2, e.description)
            }
        }
        // The board first: can it be a CS initiator at all?
        let (line, findings): (BoardLine, ControllerProbe.Findings)
        do { (line, findings) = try o.board.openAndProbe() } catch .device(let why) { return .failure(status: 2, why) }
        defer { line.close() }
        if let why = initiatorProblem(findings) {
            return .failure(status: 2, "\(path): this board cannot range as an initiator: \(why); 'reflector-emu check --port \(path)' shows what it reports")
        }

        var session = RangeSession(plan: .init(scanningFor: o.filter, longTermKey: o.ltk ?? []),
                                   estimator: o.calibration.map { CalibratedEstimator(o.estimator.estimator, calibration: $0) } ?? o.estimator.estimator,
                                   alwaysRAS: o.alwaysRAS, requireIOSCompliance: o.requireIOS, procedureCount: UInt16(o.procedureCount),
                                   mainMode: o.mainMode, rttType: o.rttType,
                                   bonds: store?.bonds ?? [], irk: store?.irk)
        session.keepsFirstTones = o.plot != nil
        session.keepsLastTones = o.view.address != nil
        let view = try RangingView.range(o, board: findings)
        report.view = view
        defer { view?.finish(output: output) }
        report.start()
        let loop = HostLoop<RangeSession>(board: line, line: o.board) { report.status($0) }
        // Encrypted with a bond on this link (a refused key then means the reflector forgot it).
        var usedBond = false
        var scanningSince: Date? = loop.start
        // What the host waits for, since when: a board or reflector that never reports it has stopped.
        var waiting: (event: String, since: Date)?
        var lastResult = loop.start
        // Set when the board was set up again for results that stopped; cleared by a result. A
        // second stop in a row, with nothing in between, ends the run.
        var restartedForResults = false
        let outcome = loop.run(&session, output: { session, out in
            switch out {
            case .phone(.host):
                break  // the session turns the initiator's outputs into its own
            case .phone(.connected(let peer)):
                scanningSince = nil
                usedBond = false
                if let f = store, let board = session.host.localAddress, !f.bonds.isEmpty, f.address != 0, f.address != board {
                    report.status("note: the bonds in \(o.bonds!) were made from the board at \(HexText.address(f.address)); this one is "
                        + "\(HexText.address(board)), and a reflector knows a phone by its board's address")
                }
                report.status("connected to \(HexText.address(peer.address)) (\(peer.isRandom ? "random" : "public") address)")
            case .procedure(let row):
                lastResult = Date()
                restartedForResults = false
                report.procedure(row)
                view?.procedure(report.last!, tones: session.lastTones)
                if let n = o.procedures, report.count >= n { return .stop(.success) }
            case .enabled(let e):
                view?.link(session.host, enabled: e)
            case .startRefused(let status):
                report.status("the reflector refused to start procedures (\(status.described)); trying again")
            case let .aborted(counter, reasons):
                report.status("procedure \(counter) was aborted: \(RangeReport.describe(reasons))")
            case .lost(let reason):
                guard !o.once else { return .stop(.failure(status: 1, "the reflector went away: \(reason.described)")) }
                report.status("the link was lost: \(reason.described); looking for the reflector again", .linkLost(reason))
                session.reconnect()
                scanningSince = Date()
            case .failed(.procedureFailed(event: .encryption, status: .pinOrKeyMissing)) where usedBond:
                return .stop(.failure(status: 2, "the reflector refused this phone's bond (PIN or Key Missing, 0x06): it no longer holds the pairing; "
                    + (o.bonds.map { "remove its entry from \($0) (or use a new file) to pair again" } ?? "run range again to pair anew")))
            case .failed(let e):
                return .stop(.failure(status: 2, "\(e)"))
            case .phone(.notIOSCompliant(let unmet)):
                report.status("note: an iPhone would not range this reflector; it lacks " + unmet.map { "\($0.summary)" }.joined(separator: "; "))
            case .phone(.rangingData(let mode)):
                view?.rangingData(mode)
                let why = o.mainMode == .mode2 ? "no inline PCT on this link" : "round trips are timed (main mode \(o.mainMode.rawValue))"
                report.status("\(why): the reflector's results come over RAS (\(mode == .realTime ? "real-time" : "on demand"))")
            case .phone(.rangingDataUnavailable(let why)):
                let route = o.mainMode == .mode2 ? "without inline PCT" : "with round trips timed"
                return .stop(.failure(status: 2, "the reflector cannot send its results: \(route) they come over its Ranging Service, but \(why)"))
            case let .phone(.rangingDataLost(counter, why)):
                report.status("procedure \(counter & 0x0FFF)'s ranging data was lost: \(why)")
            case .phone(.passkeyNeeded):
                guard let passkey = o.passkey ?? Self.askPasskey(report: &report) else {
                    return .stop(.failure(status: 2, "the reflector shows a passkey to type: give it with --passkey NNNNNN, or run range on a terminal"))
                }
                return .handle(session.enterPasskey(passkey))
            case .phone(.compare(let n)): report.status("numeric comparison: the reflector should show \(String(format: "%06u", n)) (taken as matching)")
            case .phone(.paired(let r)):
                let kept = o.bonds.map { "bonded, kept in \($0)" } ?? "bonded for this run"
                report.status("paired (\(r.method.name), \(r.bonded ? kept : "not bonded"))")
                if r.bonded, var f = store, let file = o.bonds {
                    f.address = session.host.localAddress ?? f.address
                    f.bonds = session.bonds
                    store = f
                    do throws(ToolError) { try f.save(file) } catch { report.status("could not save the bond: \(error.description)") }
                }
            case .phone(.controllerRestarted(let fault)):
                report.status("\(fault): setting the board up again and looking for the reflector", .boardRestarted(fault))
                scanningSince = Date()
                waiting = nil
            case .procedureLost(let counter):
                report.status("procedure \(counter) was lost with the link or the board (no distance)", .procedureLost(counter: counter))
            case let .proceduresMissed(first, count):
                report.status(MissedProcedures.line(first: first, count: count, "no distance"), .proceduresMissed(first: first, count: count))
            case .deviation(let d):
                report.status("note: \(d)")
            case .phone(.encryptedWithBond):
                usedBond = true
                report.status("encrypting with the bond \(o.bonds.map { "kept in \($0)" } ?? "made earlier in this run") (no new pairing)")
            case let .phone(.pairingFailed(reason, byPeer)):
                return .stop(.failure(status: 2, "pairing failed: \(reason.described)\(byPeer ? ", said the reflector" : "")"))
            }
            return .goOn
        }, afterTurn: { session in
            if let since = scanningSince, session.isScanning, Date().timeIntervalSince(since) > Double(o.scanTimeout) {
                return .stop(.failure(status: 2, "no reflector found in \(o.scanTimeout) s looking for \(o.lookingFor); is it advertising "
                    + "(connectable)? Choose it with --address, --name or --service"))
            }
            if let event = session.awaitedEvent, !session.isScanning {
                if waiting?.event != event { waiting = (event, Date()) }
                if let w = waiting, Date().timeIntervalSince(w.since) > Self.eventTimeout {
                    return .stop(.failure(status: 2, "\(path): no \(w.event) within \(Int(Self.eventTimeout)) s; the board or the reflector stopped "
                        + "answering (run with --btsnoop FILE to see the exchange)"))
                }
            } else {
                waiting = nil
            }
            if session.isRanging, Date().timeIntervalSince(lastResult) > Self.eventTimeout {
                guard !restartedForResults else {
                    // Enabled "until disabled" and never a result: a controller that runs no
                    // procedure for Max_Procedure_Count 0 (RootCanal 1.13), not a lost line.
                    let neverRan = report.count == 0 && o.procedureCount == 0
                        ? "; the board has given no result since procedures were enabled with Max_Procedure_Count 0 (until disabled, "
                            + "Core 6.0 Vol 4 Part E 7.8.140): a controller that runs none then needs a count, --procedure-count N" : ""
                    return .stop(.failure(status: 2, "\(path): no CS results for \(Int(Self.eventTimeout)) s while procedures are enabled, "
                        + "twice, after setting the board up again\(neverRan) (run with --btsnoop FILE to see the exchange)"))
                }
                // Results that stop without a word (events lost on the line, a controller that
                // stopped its procedures) are met as the other faults are: the board is set up
                // again, the procedures in flight are named lost, and the link comes back.
                restartedForResults = true
                lastResult = Date()
                return .handle(session.restartController(.resultsStopped(seconds: Int(Self.eventTimeout))))
            }
            report.progress(scanning: session.isScanning, lookingFor: o.lookingFor)
            return .goOn
        })
        // Leave the reflector as a phone does when its session ends: disconnect, and wait a
        // moment for the board to confirm.
        if let handle = session.connectedHandle {
            session.disconnect(handle)
            if let command = session.nextCommand() {
                try? line.channel.send(command)
                let deadline = Date().addingTimeInterval(Double(min(o.board.timeout, 1000)) / 1000)
                while session.connectedHandle != nil, Date() < deadline {
                    if let packet = try? line.channel.receive(timeout: 20), packet.indicator == .event { _ = session.handleEvent(packet, now: loop.elapsed) }
                }
            }
        }
        let closing = report.finish(elapsed: loop.elapsed, connections: session.connections)
        view?.summary(text: closing.text, json: closing.json)
        if let path = o.plot {
            guard let tones = session.firstTones else {
                return outcome.status != 0 ? outcome : .failure(status: 2, "\(path): no procedure to plot")
            }
            let trace = report.rows.enumerated().map { (procedure: $0.offset, truth: o.truth, raw: $0.element.raw, smoothed: $0.element.smoothed) }
            try OutputFile.write(LoopbackPlotting.svg(tones: tones, truth: o.truth, trace: trace), to: path)
        }
        return outcome
    }

    /// Asks the user for the passkey on a terminal (nil: no terminal, or not six digits).
    static func askPasskey(report: inout RangeReport) -> UInt32? {
        guard isatty(STDIN_FILENO) != 0 else { return nil }
        report.status("type the passkey the reflector shows, then Enter:")
        guard let line = readLine()?.trimmingCharacters(in: .whitespaces), line.count == 6, let v = UInt32(line), v <= 999_999 else { return nil }
        return v
    }

    /// How long an awaited event (a CS set-up step's completion, the next results) may take:
    /// longer than any LL procedure's response timeout would be too long to notice; these
    /// take milliseconds on a working link.
    static let eventTimeout: TimeInterval = 10

    /// Why a controller cannot be a CS initiator, or nil if it can.
    static func initiatorProblem(_ f: ControllerProbe.Findings) -> String? {
        guard f.supportsChannelSounding else { return "it does not support Channel Sounding (LE feature bit 46 is clear)" }
        guard let caps = f.capabilities else { return "it did not report its CS capabilities" }
        guard caps.supports(.initiator) else { return "its CS capabilities do not include the initiator role (Roles_Supported: reflector only)" }
        return nil
    }
}
