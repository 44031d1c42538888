import Foundation

/// `reflector-emu plan`: argument parsing and file reading around `PlanReport`.
public enum PlanCommand {
    public static let help = """
        usage: reflector-emu plan --config CONFIG.json --security SECURITY.json [--procedures N] [--json]

        Prints the deterministic step plan that initiator and reflector both derive from a CS
        configuration and the CS security material.

          --config FILE      Create Config and procedure parameters (see Examples/plan-config.json)
          --security FILE    cs_iv (32 hex digits), cs_in (16), cs_pv (32), MSO first
          --procedures N     how many consecutive procedures to plan (1-1000, default 1)
          --json             one JSON object instead of a table

        """

    /// Runs the command and returns what it prints; throws a one-line error for bad input.
    public static func run(_ args: [String]) throws(ToolError) -> String {
        var configPath: String?
        var securityPath: String?
        var procedures = 1
        var json = false
        var i = 0
        func value(_ flag: String) throws(ToolError) -> String {
            i += 1
            guard i < args.count else { throw .usage("\(flag) needs a value") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--config": configPath = try value("--config")
            case "--security": securityPath = try value("--security")
            case "--procedures":
                let v = try value("--procedures")
                guard let n = Int(v), (1...1000).contains(n) else { throw .usage("--procedures must be an integer from 1 to 1000, found '\(v)'") }
                procedures = n
            case "--json": json = true
            case "-h", "--help": return help
            default: throw .usage("plan: unknown option '\(args[i])' (see reflector-emu plan --help)")
            }
            i += 1
        }
        guard let configPath else { throw .usage("plan: --config CONFIG.json is required") }
        guard let securityPath else { throw .usage("plan: --security SECURITY.json is required") }
        let config = try load(configPath) { (v) throws(ToolError) in try PlanConfigFile(json: v) }
        let security = try load(securityPath) { (v) throws(ToolError) in try SecurityFile(json: v) }
        let report = PlanReport(config: config, security: security, count: procedures)
        return json ? report.json + "\n" : report.table
    }

    /// Reads and parses a JSON file; errors name the file.
    static func load<T>(_ path: String, _ parse: (JSONValue) throws(ToolError) -> T) throws(ToolError) -> T {
        guard let data = FileManager.default.contents(atPath: path) else { throw .badFile("\(path): cannot read the file") }
        do {
            return try parse(try JSONValue.parse(data))
        } catch {
            throw .badFile("\(path): \(error.description)")
        }
    }
}
