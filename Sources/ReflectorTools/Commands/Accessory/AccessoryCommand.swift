import BLEHost
import Foundation
import HCITransport
import ReflectorFirmware
import SerialTransport
import ToolFiles
import ToolJSON

/// `reflector-emu accessory`: this project's accessory host on a real CS controller over HCI
/// UART (or a served board's pty): check the board, advertise, pair and bond with LE Secure
/// Connections, serve GATT with the Ranging Service, take the reflector role in every
/// connection's Channel Sounding and report each procedure the reflector measured. Exit status
/// 0 stopped, 1 the phone went away with `--once`, 2 could not serve (port, board, bond file).
public enum AccessoryCommand: Command {
    public static let name = "accessory"
    public static let summary = ["be an accessory an iPhone pairs with and ranges, on a real board;",
                                 "report what the reflector measures"]

    public static let help = HelpText(
        usage: """
            usage: reflector-emu accessory (--port DEVICE [--baud N] [--rtscts] | --pty LINK) [options]
            """,
        about: """
            Runs the accessory's host on the CS controller on DEVICE: checks the board can be an
            iPhone's reflector (as 'check' does; --force goes on anyway), advertises connectably
            from a static random address kept in the bond file, with the name and the Ranging
            Service UUID (and --service UUIDs, for an app's AccessorySetupKit filter), pairs with
            LE Secure Connections (Just Works; with --passkey the accessory shows a passkey the
            phone's user types, fresh each time or --fixed-passkey) and bonds, serves GATT (GAP,
            GATT, Device Information, the Ranging Service: real-time, or --ras-on-demand), allows
            the reflector role on every connection and prints each procedure the reflector
            measured. It advertises again after a disconnection, until SIGINT or SIGTERM. Status
            lines go to stderr. Exit status: 0 stopped, 1 the phone went away (--once), 2 could
            not serve.
            """)

    public struct Options {
        public var board = BoardLineOptions()
        public var name = "reflector-emu"
        public var services: [UInt16] = []
        public var bonds: String?
        public var pairable: Bool?
        public var passkey = false
        public var fixedPasskey: UInt32?
        public var allowsLegacy = false
        public var onDemand = false
        public var force = false
        public var procedures: Int?
        public var once = false
        public var json = false
        /// `--view [ADDR:]PORT`, `--view-hold`: the live page.
        public var view = ViewOptions()
        public init() {}
    }

    public static var options: OptionTable<Options> {
        OptionTable(defaults: Options(), options: BoardLineOptions.options(name, at: \.board) + [
            .value("--name", "NAME", OptionValue(allowed: "1 to 29 octets of UTF-8") { v in (1...29).contains(v.utf8.count) ? v : nil },
                   help: "the advertised and GAP name (default reflector-emu)") { o, v throws(ToolError) in o.name = v },
            .value("--service", "UUID", OptionValue(allowed: "a 16-bit UUID in hex like 180F") { v in v.utf8.count == 4 ? UInt16(v, radix: 16) : nil },
                   help: "also advertise this 16-bit service UUID (repeatable)") { o, v throws(ToolError) in
                guard o.services.count < 11 else { throw .usage("accessory: at most 11 --service UUIDs fit in the advertising data") }
                o.services.append(v)
            },
            .value("--bonds", "FILE", .text, help: "the bond file (default $XDG_STATE_HOME/reflector-emu/bonds.json)") { o, v throws(ToolError) in o.bonds = v },
            .flag("--pairable", help: "accept new pairings (the default until a bond exists)") { o in o.pairable = true },
            .flag("--no-pairable", help: "refuse new pairings (the default once a bond exists)") { o in o.pairable = false },
            .flag(\.passkey, "--passkey", help: "show a passkey for the phone's user to type (DisplayOnly),", "a fresh one each pairing; default: Just Works"),
            .value("--fixed-passkey", "NNNNNN", .integer(0...999_999, allowed: "six digits, 000000 to 999999"),
                   help: "show this passkey every time (a label printed on the accessory;", "weaker than a fresh one); implies --passkey") { o, v throws(ToolError) in
                o.fixedPasskey = UInt32(v)
                o.passkey = true
            },
            .flag(\.allowsLegacy, "--allow-legacy", help: "accept LE legacy pairing from a central without Secure Connections",
                  "(keys an eavesdropper of the pairing can learn); default: refused"),
            .flag(\.onDemand, "--ras-on-demand", help: "RAS on demand only (RAS Features bit 0 clear), as nRF's default"),
            .flag(\.force, "--force", help: "serve a board that cannot be an iPhone's reflector"),
            .value(\.procedures, "--procedures", "N", .integer(1...1_000_000), help: "exit after N procedures (default: until SIGINT)"),
            .flag(\.once, "--once", help: "exit (status 1) when the phone disconnects, instead of advertising again"),
            .json(\.json, help: "JSON Lines: one object per procedure, a record per link, procedure or", "board set-up lost (docs/faults.md), then {\"summary\": {...}}"),
            .view(\.view),
            .viewHold(\.view),
        ], helpColumn: 22, validate: { o throws(ToolError) in try o.board.validate(name) })
    }

    public static func run(_ o: Options, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        output.flushesEachLine = true
        let path = o.board.path ?? ""
        var report = AccessoryReport(json: o.json, output: output)
        let bondPath = o.bonds ?? BondFile.defaultPath
        var store: BondFile
        switch BondFile.load(bondPath, for: .accessory) {
        case .success(let loaded):
            store = loaded.file
            if let note = loaded.note { report.status(note) }
        case .failure(let e): return .failure(status: 2, e.description)
        }
        try store.save(bondPath)

        let (line, findings): (BoardLine, ControllerProbe.Findings)
        do { (line, findings) = try o.board.openAndProbe() } catch .device(let why) { return .failure(status: 2, why) }
        defer { line.close() }
        let check = CheckReport(findings)
        if !check.compatible {
            let failing = check.requirements.filter { !$0.pass }.map { "\($0.name): \($0.detail)" }.joined(separator: "; ")
            guard o.force else {
                return .failure(status: 2, "\(path): an iPhone will not range with this board (\(failing)); 'reflector-emu check --port \(path)' "
                    + "shows the whole report; --force serves it anyway")
            }
            report.status("serving a board an iPhone will not range with (--force): \(failing)")
        }

        var configuration = AccessoryHost.Configuration(
            identity: .init(name: o.name, manufacturer: "reflector-emu", model: "reflector-emu accessory", firmwareRevision: ProjectVersion.text),
            address: store.address, irk: store.irk)
        configuration.services = o.services
        configuration.ioCapability = o.passkey ? IOCapability.displayOnly : .noInputNoOutput
        configuration.fixedPasskey = o.fixedPasskey
        configuration.pairable = o.pairable ?? store.bonds.isEmpty
        configuration.realTimeRAS = !o.onDemand
        configuration.allowsLegacyPairing = o.allowsLegacy
        var host = AccessoryHost(configuration: configuration, bonds: store.bonds, random: .system)
        report.start(name: o.name, address: store.address)
        let view = try RangingView.accessory(o, address: store.address, check: check)
        report.view = view
        defer { view?.finish(output: output) }
        if !configuration.pairable { report.status("not pairable: \(store.bonds.count) bond\(store.bonds.count == 1 ? "" : "s") kept (--pairable accepts new phones)") }
        let loop = HostLoop<AccessoryHost>(board: line, line: o.board) { report.status($0) }
        func keepBonds(_ host: AccessoryHost) {
            store.bonds = host.bonds
            do { try store.save(bondPath) } catch { report.status("could not save the bond: \(error.description)") }
        }
        let outcome = loop.run(&host) { host, out in
            switch out {
            case .advertising: report.status("advertising as '\(o.name)' with the Ranging Service (0x185B)")
            case .connected(let peer):
                report.connected()
                report.status("connected to \(HexText.address(peer.address)) (\(peer.isRandom ? "random" : "public") address)")
            case .displayPasskey(let p): report.status("passkey \(String(format: "%06u", p)): type it on the phone")
            case .paired(let r):
                report.paired()
                report.status("paired with \(HexText.address(r.peerAddress.address)) (\(r.method.name)\(r.legacy ? ", LE legacy pairing" : ""), \(r.bonded ? "bonded" : "not bonded"))")
                if r.bonded { keepBonds(host) }
            case let .pairingFailed(reason, byPeer):
                report.status("pairing failed: \(reason.described)\(byPeer ? ", said the phone" : "")")
            case .encrypted(let bond):
                report.status(bond.map { "encrypted with the bond of \(HexText.address($0.peer.address))" } ?? "encrypted with the new pairing's key")
            case .unknownKey: report.status("the phone asked for a key this accessory does not hold (no bond): refused")
            case .bondUpdated: keepBonds(host)
            case .procedure(let p):
                report.procedure(p)
                view?.record(p)
                if let n = o.procedures, report.procedures >= n { return .stop(.success) }
            case .disconnected(let reason):
                guard !o.once else { return .stop(.failure(status: 1, "the phone went away: \(reason.described)")) }
                report.status("disconnected: \(reason.described); advertising again", .linkLost(reason))
            case .controllerRestarted(let fault):
                report.status("\(fault): setting the board up again (bonds kept)", .boardRestarted(fault))
            case .procedureLost(let counter):
                report.status("procedure \(counter) was lost with the link or the board (not reported)", .procedureLost(counter: counter))
            case let .proceduresMissed(first, count):
                report.status(MissedProcedures.line(first: first, count: count, "not reported"), .proceduresMissed(first: first, count: count))
            case .channelSoundingUnavailable(let why):
                report.status("Channel Sounding is unavailable: \(why); advertising, pairing and GATT go on")
            case .deviation(let d):
                report.status("note: \(d)")
            case let .failed(op, status):
                return .stop(.failure(status: 2, "\(path): the board refused command 0x\(HexText.digits(op, 4)): \(status.described)"))
            }
            return .goOn
        }
        let closing = report.finish(elapsed: loop.elapsed, bonds: host.bonds.count)
        view?.summary(text: closing.text, json: closing.json)
        return outcome
    }
}
