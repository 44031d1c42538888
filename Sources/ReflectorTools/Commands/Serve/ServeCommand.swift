import EmulatorMath
import Foundation
import HCITransport
import RadioWorld
import ReflectorFirmware
import SerialTransport
import ToolJSON
import VirtualBoard

/// `reflector-emu serve`: the emulated controller as a dev board on a pty or serial port, with
/// an emulated peer of the other role in the simulated air; or two boards in one air, each on
/// its own line, for two host stacks to range each other. Runs until SIGINT, SIGTERM or the
/// end of standard input.
public enum ServeCommand: Command {
    public static let name = "serve"
    public static let summary = ["serve the emulated controller as a virtual dev board on a pty or serial port (or two boards in one air)"]

    public static let help = HelpText(
        usage: "usage: reflector-emu serve (--pty LINK | --port DEVICE [--baud N] [--rtscts]){1,2} [options]",
        about: """
            Serves the emulated controller as a virtual dev board: a real host stack (Bumble,
            BlueZ, Zephyr's host) attaches to LINK (a pseudo-terminal) or DEVICE with H4 at 8N1,
            initialises it, connects to the emulated peer and runs Channel Sounding. Given two
            lines (--pty A --pty B, or --port for either), serves two boards in one simulated
            air and no emulated peer: the hosts on A and B advertise, scan, connect, encrypt
            and run CS with each other. Prints 'ready PATH...' when it accepts traffic; stops on
            SIGINT, SIGTERM or end of stdin.
            """)

    /// One board's line.
    public enum Line: Equatable, Sendable {
        case pty(String), port(String)
        var path: String {
            switch self {
            case .pty(let p), .port(let p): p
            }
        }
    }

    public struct Options {
        /// The boards' lines, in order (A, then B).
        public var lines: [Line] = []
        public var baud = 1_000_000
        public var rtscts = false
        public var role: VirtualBoard.Role?
        public var distance = 3.0
        public var walk: (start: Double, end: Double)?
        public var peerAddress: UInt64?
        public var ltk: [UInt8]?
        public var channel = AirChannelChoice.light
        public var snrDB = 30.0
        public var seed: UInt64 = 1
        public var layout = CapabilitiesLayout.v2
        /// Capture files, one per board in order.
        public var btsnoop: [String] = []
        public var peerLeavesAfter: Int?
        public var timing = false
        /// With --timing, also a line per this many seconds (the soak's windows).
        public var timingEvery: Int?
        /// JSON Lines on stdout instead of the lines (`{"ready": …}`, faults, windows, the end).
        public var json = false
        /// Two boards: their controllers lack Inline PCT Transfer, as CS controllers before Core 6.3 do.
        public var withoutInlinePCT = false
        /// One board, reflector: the emulated phone pairs (and types this passkey if shown one).
        public var pairs = false
        /// `--faults SPEC`, as given, and the schedule it reads as (once the lines are known).
        public var faultSpec: String?
        public var faults: [LineFault] = []
        public var passkey: UInt32?
        public init() {}

        public var ptyLink: String? { lines.first.flatMap { if case .pty(let p) = $0 { p } else { nil } } }
    }

    /// How long a `--walk` takes, µs (then the boards stay at its end).
    static let walkDuration: UInt64 = 60_000_000

    public static var options: OptionTable<Options> {
        OptionTable(defaults: Options(), options: [
            .value("--pty", "LINK", .text, help: "create a pseudo-terminal and link LINK to it (twice: two boards)") { o, v throws(ToolError) in
                o.lines.append(.pty(v))
            },
            .value("--port", "DEVICE", .text, help: "serve on a real serial port instead (or for one of two boards)") { o, v throws(ToolError) in
                o.lines.append(.port(v))
            },
            .baud(\.baud, help: "baud rate on --port (default 1000000)"),
            .flag(\.rtscts, "--rtscts", help: "RTS/CTS flow control on --port"),
            .value("--role", "ROLE", OptionValue(allowed: "reflector or initiator") { VirtualBoard.Role(rawValue: $0) },
                   help: "one board: reflector (default: the peer is an iPhone-like initiator",
                   "that connects when the host advertises) or initiator (the peer is",
                   "this project's reflector; the host connects to --peer-address)") { o, v throws(ToolError) in o.role = v },
            .value("--peer-distance", "M", .number(0.1...149, "m"), help: "distance between the boards in metres (default 3; also --distance)") { o, v throws(ToolError) in
                o.distance = v
            },
            .value("--distance", "M", .number(0.1...149, "m"), help: "the same as --peer-distance") { o, v throws(ToolError) in o.distance = v },
            .value("--walk", "START:END", .walk, help: "walk from START to END metres over the first 60 s, then stay") { o, v throws(ToolError) in
                o.walk = v
            },
            .value("--peer-address", "ADDR", OptionValue(allowed: "six hex octets like C0:FF:EE:00:00:B1") { HexText.address(parsing: $0) },
                   help: "one board: the peer's address (default C0:FF:EE:00:00:B1; the emulated", "accessory's is a static random one)") { o, v throws(ToolError) in o.peerAddress = v },
            .value(\.ltk, "--bond-ltk", "HEX32", OptionValue(allowed: "32 hex digits (16 octets, as HCI carries the key)") { v in
                v.count == 32 ? HexText.octets(parsing: v) : nil
            }, help: "one board: the bond's long-term key the peer holds;", "without it any key is accepted"),
            .value(\.peerLeavesAfter, "--peer-leaves-after", "N", .integer(1...1_000_000),
                   help: "one board: the emulated peer goes out of range after N CS", "procedures (to try a host's handling of a lost link)"),
            .value(\.channel, "--channel", "MODEL", .airChannel, help: "light (default), free, two-ray, tgn-b ... (as loopback)"),
            .snr(\.snrDB, help: "per-tone SNR in dB (default 30)"),
            .seed(\.seed, help: "simulation seed (default 1)"),
            .value(\.layout, "--caps-layout", "FORM", OptionValue(allowed: "zephyr or bumble") { v in
                v == "zephyr" ? CapabilitiesLayout.v2 : v == "bumble" ? .v2WithPHYSpecificRTT : nil
            }, help: "zephyr (default: 31-octet v2 capabilities) or bumble (34 octets)"),
            .flag(\.pairs, "--pair", help: "one board: the emulated phone pairs with LE Secure Connections (and reads",
                  "the Ranging Service without inline PCT) instead of using a bond key"),
            .value("--passkey", "NNNNNN", .integer(0...999_999, allowed: "six digits, 000000 to 999999"),
                   help: "with --pair: what the phone types when the accessory shows a passkey") { o, v throws(ToolError) in o.passkey = UInt32(v) },
            .flag(\.withoutInlinePCT, "--without-inline-pct", help: "two boards: controllers without Inline PCT Transfer (as before",
                  "Core 6.3), so CS runs without it and PCTs go over RAS"),
            .flag(\.timing, "--timing", help: "at the end, how late the subevent results reached the line", "(median, p99, max: from the procedure's start to the write)"),
            .value(\.timingEvery, "--timing-every", "S", .integer(1...86_400, allowed: "seconds from 1 to 86400"),
                   help: "with --timing, also one line per S seconds, for that window"),
            .json(\.json, help: "JSON Lines instead of the lines: {\"ready\": ...}, each fault, each window,",
                  "the end and the timing (what scripts/soak reads)"),
            .value("--btsnoop", "FILE", .text, help: "record the HCI traffic on the line, both directions", "(twice with two boards: A's line, then B's)") {
                o, v throws(ToolError) in o.btsnoop.append(v)
            },
            .value("--faults", "SPEC", .text, help: "inject faults: KIND[:A|B]@SECONDS[/EVERY],... with KIND reset",
                   "(Hardware Error, then as after power-on), garble-in, drop-in (an octet from the", "host garbled or lost: the board loses sync, sends Hardware Error and waits for", "Reset), garble-out, drop-out (an octet to the host garbled or lost), silent+S") { o, v throws(ToolError) in
                o.faultSpec = v
            },
        ], helpColumn: 23, validate: { o throws(ToolError) in
            guard (1...2).contains(o.lines.count) else { throw .usage("serve: give one line (--pty LINK or --port DEVICE), or two for two boards") }
            guard o.btsnoop.count <= o.lines.count else { throw .usage("serve: one --btsnoop FILE per board at most") }
            if o.pairs && (o.lines.count != 1 || o.role == .initiator || o.ltk != nil) {
                throw .usage("serve: --pair is for one board served as a reflector (the emulated phone pairs), without --bond-ltk")
            }
            if o.passkey != nil && !o.pairs { throw .usage("serve: --passkey goes with --pair") }
            if let spec = o.faultSpec { o.faults = try LineFault.schedule(spec, boards: o.lines.count) }
            if o.role == .initiator, let a = o.peerAddress, a >> 46 != 0b11 {
                throw .usage("serve: with --role initiator the peer is an accessory advertising from a static random address: --peer-address "
                    + "needs its two top bits set (C0:00:00:00:00:00 and above), not \(HexText.address(a))")
            }
            if o.withoutInlinePCT && o.lines.count != 2 {
                throw .usage("serve: --without-inline-pct is for two boards (the emulated peer of one board always supports it)")
            }
            if o.lines.count == 2 {
                if o.role != nil || o.peerAddress != nil || o.ltk != nil || o.peerLeavesAfter != nil {
                    throw .usage("serve: --role, --peer-address, --bond-ltk and --peer-leaves-after are for one board; with two, the hosts on A and B are the peers")
                }
                guard o.lines[0].path != o.lines[1].path else { throw .usage("serve: the two boards need two lines, not '\(o.lines[0].path)' twice") }
            }
        })
    }

    /// Serves until stopped; the `ready` line and the closing summary go to `output` at once.
    public static func run(_ o: Options, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        output.flushesEachLine = true
        // A line, or with --json its record.
        let say = { (line: String, record: (inout JSONWriter) -> Void) in o.json ? output.jsonLine(record) : output.line(line) }
        let board = { (i: Int) in i == 0 ? "A" : "B" }
        var links: [any SerialLink] = []
        defer { for l in links { l.close() } }
        for line in o.lines {
            do {
                switch line {
                case .pty(let path): links.append(try PseudoTerminal(linkPath: path, keepsReplicaOpen: true))
                case .port(let path):
                    links.append(try SerialPort(path: path, configuration: SerialConfiguration(baudRate: o.baud, flowControl: o.rtscts ? .rtsCts : .none)))
                }
            } catch {
                throw .usage(error.description)
            }
        }
        var channels = links.map { HCIChannel(link: $0, side: .controller) }
        var sinks: [BTSnoopFileSink?] = Array(repeating: nil, count: links.count)
        defer { for s in sinks { try? s?.close() } }
        for (i, path) in o.btsnoop.enumerated() {
            let sink: BTSnoopFileSink
            do { sink = try BTSnoopFileSink(creatingFileAtPath: path) } catch { throw .badFile("\(path): cannot create the capture (\(error))") }
            sinks[i] = sink
            channels[i].recorder = { try? sink.append($0) }
        }
        var served = ServedAir(o, scenario: scenario(o))
        StopSignal.install()
        say("ready " + o.lines.map(\.path).joined(separator: " ")) { $0.document("ready") { $0.field("lines", o.lines.map(\.path)) } }
        let start = SystemClock.microseconds()
        var packets = [Int](repeating: 0, count: channels.count)
        var lateness: [UInt64] = []
        var window: [UInt64] = []
        var windowStart: UInt64 = 0
        var faults = LineFaultClock(o.faults)
        var toHost: [LineFault.Kind?] = Array(repeating: nil, count: channels.count)
        var silentUntil = [UInt64](repeating: 0, count: channels.count)
        var reopenAt = [UInt64?](repeating: nil, count: channels.count)
        serving: while !StopSignal.requested {
            let elapsed = SystemClock.microseconds() - start
            for f in faults.due(at: Double(elapsed) / 1e6) {
                say("serve: fault \(f.name) on board \(board(f.board)) at \(String(format: "%.1f", Double(elapsed) / 1e6)) s") { j in
                    j.document("fault") { j in
                        j.field("kind", f.name)
                        j.field("board", board(f.board))
                        j.field("at_s", Double(elapsed) / 1e6, decimals: 1)
                    }
                }
                switch f.kind {
                case .reset: served.hardwareFault(board: f.board)
                case .garble(toBoard: true), .drop(toBoard: true): served.lostSync(board: f.board)
                case .garble(toBoard: false), .drop(toBoard: false): toHost[f.board] = f.kind
                case .silent(let s): silentUntil[f.board] = elapsed + UInt64(s * 1e6)
                case .reopen(let s):
                    guard case .pty = o.lines[f.board], reopenAt[f.board] == nil else { break }
                    links[f.board].close()
                    served.powerOn(board: f.board)
                    reopenAt[f.board] = elapsed + UInt64(s * 1e6)
                }
            }
            for i in channels.indices {
                guard let at = reopenAt[i], elapsed >= at, case .pty(let path) = o.lines[i] else { continue }
                do { links[i] = try PseudoTerminal(linkPath: path, keepsReplicaOpen: true) } catch {
                    say("serve: \(error.description)") { $0.document("error") { $0.field("message", error.description) } }
                    break serving
                }
                channels[i] = HCIChannel(link: links[i], side: .controller)
                if let sink = sinks[i] { channels[i].recorder = { try? sink.append($0) } }
                reopenAt[i] = nil
                say("serve: board \(board(i))'s port is back at \(path)") { j in
                    j.document("port_back") { j in
                        j.field("board", board(i))
                        j.field("path", path)
                    }
                }
            }
            // Wake for the next CS procedure as well as for the hosts (at most 2 ms apart).
            let now = SystemClock.microseconds() - start
            let wait = served.nextProcedureStart.map { $0 > now ? Int(min(2_000, $0 - now) / 1000) : 0 } ?? 2
            HCIChannel.waitForAny(channels.indices.filter { reopenAt[$0] == nil }.map { channels[$0] }, timeout: wait)
            for (i, channel) in channels.enumerated() where reopenAt[i] == nil {
                while true {
                    do {
                        let packet = try channel.receive(timeout: 0)
                        packets[i] += 1
                        // A silent board takes nothing in.
                        if SystemClock.microseconds() - start >= silentUntil[i] { served.receive(packet, on: i) }
                    } catch .timeout {
                        break
                    } catch {
                        // The line went away (unplugged port): nothing left to serve.
                        say("serve: \(error.description)") { $0.document("error") { $0.field("message", error.description) } }
                        break serving
                    }
                }
            }
            let out = served.poll(now: SystemClock.microseconds() - start)
            for (i, channel) in channels.enumerated() {
                if SystemClock.microseconds() - start < silentUntil[i] || reopenAt[i] != nil { continue }
                for p in out[i] {
                    if let fault = toHost[i] {
                        // The octet garbled is the indicator (0xFF is none): the host's framer loses sync.
                        toHost[i] = nil
                        var octets = p.h4Bytes
                        if case .garble = fault { octets[0] = 0xFF } else { octets.removeLast() }
                        do { try links[i].write(octets, timeout: SerialConfiguration.defaultWriteTimeoutMilliseconds) } catch { break }
                        continue
                    }
                    do { try channel.send(p) } catch { break }
                    if o.timing, let due = served.lastProcedureStart,
                       p.leSubeventCode == LESubeventCode.csSubeventResult || p.leSubeventCode == LESubeventCode.csSubeventResultContinue {
                        let late = SystemClock.microseconds() - start - min(due, SystemClock.microseconds() - start)
                        lateness.append(late)
                        if o.timingEvery != nil { window.append(late) }
                    }
                }
            }
            if let every = o.timingEvery, o.timing, elapsed - windowStart >= UInt64(every) * 1_000_000 {
                let (from, to, procedures) = (windowStart, elapsed, served.proceduresRun)
                say("serve: window \(String(format: "%.0f", Double(from) / 1e6))-\(String(format: "%.0f", Double(to) / 1e6)) s: "
                    + Self.latenessSummary(window) + ", \(procedures) CS procedures so far") { [window] j in
                    j.document("window") { j in
                        j.field("from_s", Double(from) / 1e6, decimals: 0)
                        j.field("to_s", Double(to) / 1e6, decimals: 0)
                        Self.latenessFields(window, &j)
                        j.field("procedures", procedures)
                    }
                }
                window.removeAll(keepingCapacity: true)
                windowStart = elapsed
            }
            if StopSignal.standardInputClosed() { break }
        }
        let from = channels.count == 1 ? "\(packets[0]) packets from the host" : "\(packets[0]) + \(packets[1]) packets from the hosts on A and B"
        say("serve: stopped after \(from), \(served.proceduresRun) CS procedures") { [packets] j in
            j.document("stopped") { j in
                j.field("packets", array: { j in for n in packets { j.value(n) } })
                j.field("procedures", served.proceduresRun)
            }
        }
        if o.timing { say("serve: " + Self.latenessSummary(lateness)) { [lateness] j in j.document("timing") { Self.latenessFields(lateness, &$0) } } }
        return .success
    }

    /// "N subevent results written a median … us, p99 … us, max … us after their procedure was due".
    static func latenessSummary(_ lateness: [UInt64]) -> String {
        let f = latenessFigures(lateness)
        let text = { (v: Int?) in v.map(String.init) ?? "-" }
        return "\(f.count) subevent results written a median \(text(f.median)) us, p99 \(text(f.p99)) us, max \(text(f.max)) us "
            + "after their procedure was due"
    }

    /// The same figures as JSON fields: `results`, `median_us`, `p99_us`, `max_us` (null when none).
    static func latenessFields(_ lateness: [UInt64], _ j: inout JSONWriter) {
        let f = latenessFigures(lateness)
        j.field("results", f.count)
        j.field("median_us", f.median)
        j.field("p99_us", f.p99)
        j.field("max_us", f.max)
    }

    /// How many results, and their median, p99 (interpolated, truncated to whole µs) and maximum.
    static func latenessFigures(_ lateness: [UInt64]) -> (count: Int, median: Int?, p99: Int?, max: Int?) {
        let sorted = lateness.sorted().map { Double($0) }
        let q = { (p: Double) in sorted.isEmpty ? nil : (Quantile.ofSorted(sorted, p).map { Int($0) } ?? 0) }
        return (sorted.count, q(0.5), q(0.99), sorted.last.map { Int($0) })
    }

    /// The air of the run: the channel model, seed, SNR, and the distance or walk.
    static func scenario(_ o: Options) -> AirScenario {
        var scenario = AirScenario(seed: o.seed, geometry: AirGeometry(distance: o.walk?.start ?? o.distance), channelModel: o.channel.model, snrDB: o.snrDB)
        scenario.channelCoherenceTime = 150_000
        if let walk = o.walk {
            scenario.geometry.trajectory = AirTrajectory(startDistance: walk.start, endDistance: walk.end, startTime: 0, duration: walkDuration)
        }
        return scenario
    }
}

/// What `serve` runs: one board with its emulated peer, or two boards sharing one air
/// (optionals, so each is changed in place).
struct ServedAir {
    var one: VirtualBoard?
    var two: BoardAir?

    init(_ o: ServeCommand.Options, scenario: AirScenario) {
        if o.lines.count == 2 {
            var capabilities = CSCapabilities.projectReflector(antennas: 1)
            if o.withoutInlinePCT { capabilities.subfeatures.remove(.inlinePCTReflector) }
            var air = BoardAir(BoardController(capabilities: capabilities, address: 0xC0FF_EE00_00A0, seed: o.seed &* 7 &+ 3),
                               BoardController(capabilities: capabilities, address: 0xC0FF_EE00_00B0, seed: o.seed &* 11 &+ 5),
                               scenario: scenario)
            for i in 0..<2 { air.withBoard(i) { $0.cs.v2CapabilitiesLayout = o.layout } }
            two = air
        } else {
            var options = VirtualBoard.Options(role: o.role ?? .reflector, scenario: scenario, peerAddress: o.peerAddress ?? 0xC0FF_EE00_00B1, bondLTK: o.ltk)
            options.pairs = o.pairs
            options.passkey = o.passkey
            one = VirtualBoard(options)
            one?.setCapabilitiesLayout(o.layout)
            one?.peerLeavesAfterProcedures = o.peerLeavesAfter
        }
    }

    mutating func receive(_ packet: HCIPacket, on index: Int) {
        one?.receive(packet)
        two?.receive(packet, on: index)
    }

    /// Board `index`'s controller faults (Hardware Error, then as after power-on).
    mutating func hardwareFault(board index: Int) {
        one?.hardwareFault(code: 0x5A)
        two?.withBoard(index) { $0.hardwareFault(code: 0x5A) }
    }

    /// Board `index` starts afresh without a word to its host (its port went away with it).
    mutating func powerOn(board index: Int) {
        one?.powerOn()
        two?.withBoard(index) { $0.powerOn() }
    }

    /// Board `index` lost UART sync: Hardware Error, and nothing but Reset until it comes.
    mutating func lostSync(board index: Int) {
        one?.lostSync()
        two?.withBoard(index) { $0.lostSync() }
    }

    mutating func poll(now: UInt64) -> [[HCIPacket]] {
        if let out = one?.poll(now: now) { return [out] }
        return two?.poll(now: now) ?? []
    }

    var proceduresRun: Int { one?.proceduresRun ?? two?.proceduresRun ?? 0 }
    var nextProcedureStart: UInt64? { one?.air.nextProcedureStart ?? two?.nextProcedureStart }
    var lastProcedureStart: UInt64? { one?.air.lastProcedureStart ?? two?.lastProcedureStart }
}
