import Foundation
@testable import ReflectorTools
@testable import ToolJSON
import Testing

/// The command-line layer every command shares: one option table drives parsing and help, a
/// flag's value is never the next flag, every bad argument is one line naming what was wrong
/// and what is allowed, and the tool's exit statuses.
struct CommandLineTests {
    /// Every command's name with the flags of its table (for checks that run over all commands).
    static var commands: [(name: String, parse: ([String]) throws(ToolError) -> Void, valueFlags: [String], help: String)] {
        [entry(LoopbackCommand.self), entry(NearbyCommand.self), entry(PlanCommand.self), entry(EstimateCommand.self),
         entry(ServeCommand.self), entry(RangeCommand.self), entry(CheckCommand.self), entry(PortsCommand.self), entry(FlashCommand.self),
         entry(TDoACommand.self), entry(TDoAPlanCommand.self), entry(SweepCommand.self), entry(SweepMergeCommand.self)]
    }

    static func entry<C: Command>(_: C.Type) -> (name: String, parse: ([String]) throws(ToolError) -> Void, valueFlags: [String], help: String) {
        (C.name, { (args) throws(ToolError) in _ = try C.options.parse(args, command: C.name) },
         C.options.options.filter(\.takesValue).flatMap(\.names), C.helpText)
    }

    static func message(_ parse: ([String]) throws(ToolError) -> Void, _ args: [String]) -> String? {
        do { try parse(args) } catch { return error.description }
        return nil
    }

    @Test func aFlagThatTakesAValueNeverTakesTheNextFlag() {
        #expect(Self.message({ (a) throws(ToolError) in _ = try PlanCommand.parse(a) }, ["--config", "--json"]) == "--config needs a value (FILE)")
        #expect(Self.message({ (a) throws(ToolError) in _ = try PlanCommand.parse(a) }, ["--security", "s.json", "--config"]) == "--config needs a value (FILE)")
        #expect(Self.message({ (a) throws(ToolError) in _ = try LoopbackCommand.parse(a) }, ["--seed"]) == "--seed needs a value (a non-negative integer)")
        #expect(Self.message({ (a) throws(ToolError) in _ = try NearbyCommand.parse(a) }, ["--scenario"]) == "--scenario needs a value (FILE.json)")
        // Every flag with a value, in every command: the missing value is named with what it may be.
        for c in Self.commands {
            for flag in c.valueFlags {
                // A subcommand's messages name it ("tdoa plan: ", "sweep merge: ").
                let prefix = c.name.contains(" ") ? "\(c.name): " : ""
                for args in [[flag, "--json"], [flag]] {
                    let m = Self.message(c.parse, args)
                    #expect(m?.hasPrefix("\(prefix)\(flag) needs a value (") == true && m?.hasSuffix(")") == true, "\(c.name) \(flag): \(m ?? "accepted")")
                }
            }
        }
    }

    @Test func unknownFlagsNameTheCommandAndItsHelp() {
        for c in Self.commands {
            #expect(Self.message(c.parse, ["--frobnicate"]) == "\(c.name): unknown option '--frobnicate' (see reflector-emu \(c.name) --help)")
        }
    }

    /// One --baud for check, serve and flash: 1,200 to 12,000,000, one message.
    @Test func oneBaudDefinition() throws {
        let message = { (v: String) in "--baud must be a baud rate from 1200 to 12000000, found '\(v)'" }
        for v in ["0", "1199", "12000001", "fast", "1e6", "99999999999999999999"] {
            #expect(Self.message({ (a) throws(ToolError) in _ = try CheckCommand.parse(a) }, ["--pty", "x", "--baud", v]) == message(v))
            #expect(Self.message({ (a) throws(ToolError) in _ = try ServeCommand.parse(a) }, ["--pty", "x", "--baud", v]) == message(v))
            #expect(Self.message({ (a) throws(ToolError) in _ = try FlashCommand.parse(a) }, ["--port", "x", "i.bin", "--baud", v]) == message(v))
        }
        #expect(try CommandTesting.options(CheckCommand.self, ["--pty", "x", "--baud", "1200"]).board.baud == 1200)
        #expect(try CommandTesting.options(ServeCommand.self, ["--pty", "x", "--baud", "12000000"]).baud == 12_000_000)
        #expect(try CommandTesting.options(FlashCommand.self, ["--port", "x", "i.bin", "--baud", "921600"]).baud == 921_600)
    }

    /// Numbers convert exactly or not at all: no trap, no rounding, no infinity.
    @Test func numbersOutOfRangeAreOneLine() {
        let loopback = { (a: [String]) throws(ToolError) in _ = try LoopbackCommand.parse(a) }
        #expect(Self.message(loopback, ["--distance", "1e999"]) == "--distance must be a number from 0.1 to 149 m, found '1e999'")
        #expect(Self.message(loopback, ["--distance", "nan"]) == "--distance must be a number from 0.1 to 149 m, found 'nan'")
        #expect(Self.message(loopback, ["--seed", "18446744073709551616"]) == "--seed must be a non-negative integer, found '18446744073709551616'")
        #expect(Self.message(loopback, ["--seed", "-1"]) == "--seed must be a non-negative integer, found '-1'")
        #expect(Self.message(loopback, ["--procedures", "9223372036854775808"]) == "--procedures must be an integer from 1 to 1000000, found '9223372036854775808'")
        #expect(Self.message(loopback, ["--procedures", "2.0"]) == "--procedures must be an integer from 1 to 1000000, found '2.0'")
        let plan = { (a: [String]) throws(ToolError) in _ = try PlanCommand.parse(a) }
        #expect(Self.message(plan, ["--config", "c", "--security", "s", "--procedures", "65537"]) == "--procedures must be an integer from 1 to 65536, found '65537'")
        let flash = { (a: [String]) throws(ToolError) in _ = try FlashCommand.parse(a) }
        #expect(Self.message(flash, ["--port", "p", "i", "--retries", "101"]) == "--retries must be an integer from 0 to 100, found '101'")
        #expect(Self.message(flash, ["--port", "p", "i", "--timeout", "0"]) == "--timeout must be an integer from 1 to 600000, found '0'")
        let serve = { (a: [String]) throws(ToolError) in _ = try ServeCommand.parse(a) }
        #expect(Self.message(serve, ["--pty", "x", "--peer-address", "+0:00:00:00:00:00"]) == "--peer-address must be six hex octets like C0:FF:EE:00:00:B1, found '+0:00:00:00:00:00'")
        #expect(Self.message(serve, ["--pty", "x", "--bond-ltk", "+" + String(repeating: "0", count: 31)])?.hasPrefix("--bond-ltk must be 32 hex digits") == true)
    }

    /// `plan --procedures` takes the whole 16-bit counter: 65,536 plans number 0 to 65535.
    @Test func planTakesEveryProcedureCounterOnce() throws {
        #expect(try CommandTesting.options(PlanCommand.self, ["--config", "c", "--security", "s", "--procedures", "65536"]).procedures == 65536)
    }

    /// Every flag a table parses has a row in the help, and every help ends with an empty line.
    @Test func helpIsGeneratedFromTheTable() {
        for c in Self.commands {
            #expect(c.help.hasSuffix("\n\n"), "\(c.name)")
            #expect(c.help.hasPrefix("usage: reflector-emu \(c.name)"), "\(c.name)")
            for flag in c.valueFlags { #expect(c.help.contains("  \(flag) "), "\(c.name) \(flag)") }
        }
        #expect(LoopbackCommand.helpText.contains("\n  --ipt | --ras          inline PCT transfer (default), or the reflector's PCTs over RAS\n"))
        #expect(LoopbackCommand.helpText.contains("""
              --channel MODEL        light (default: a reflection 1.5 m longer at 0.3 amplitude),
                                     open (the same at 0.1), free, two-ray (3 m longer at 0.7),
            """))
    }

    @Test func helpAnywhereShowsTheHelp() throws {
        #expect(try LoopbackCommand.parse(["--seed", "3", "-h"]) == nil)
        #expect(try PlanCommand.run(["--config", "--help"]).output == PlanCommand.helpText)
    }

    /// The tool: its list of commands from their summaries, and its exit statuses.
    @Test func toolUsageAndStatuses() {
        let tool = CommandLineTool(name: "reflector-emu", commands: [LoopbackCommand.self, PlanCommand.self, TDoACommand.self])
        #expect(tool.usage == """
            usage: reflector-emu <command> [options]

            commands:
              loopback   range this project's reflector firmware from an emulated iPhone over a
                         simulated radio channel; print distances against truth and the CRLB
              plan       print the step plan both devices derive from a configuration
                         (channels, modes, antenna permutations, access addresses, timing)
              tdoa       simulate UWB DL-TDoA anchors and an iPhone-like receiver: fixes against
                         truth and the CRLB; 'tdoa plan' maps the expected error over a floor

            Run 'reflector-emu <command> --help' for a command's options.

            """)
        func run(_ args: [String]) -> (Int32, String, [String]) {
            let out = CommandOutput.memory()
            var errors: [String] = []
            let status = tool.main(args, output: out, errors: { errors.append($0) })
            return (status, out.text, errors)
        }
        #expect(run([]) == (2, tool.usage, []))
        #expect(run(["--help"]) == (0, tool.usage, []))
        #expect(run(["nope"]).0 == 2 && run(["nope"]).2 == ["reflector-emu: unknown command 'nope'; commands: loopback, plan, tdoa (see --help)"])
        #expect(run(["plan", "--config"]) == (2, "", ["reflector-emu: --config needs a value (FILE)"]))
        #expect(run(["tdoa", "plan", "--help"]) == (0, TDoAPlanCommand.helpText, []))
        #expect(run(["tdoa", "plan", "--grid", "9"]) == (2, "", ["reflector-emu: tdoa plan: --grid must be a number from 0.02 to 2 metres, found '9'"]))
        #expect(run(["tdoa", "a.json", "b.json"]).2 == ["reflector-emu: tdoa: one deployment file at most, found 'a.json' and 'b.json'"])
    }
}
