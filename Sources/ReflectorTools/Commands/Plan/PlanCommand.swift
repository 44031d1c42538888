import ToolJSON
import ToolFiles

/// `reflector-emu plan`: the step plan both devices derive from a configuration and the
/// security material, as a table or one JSON object.
public enum PlanCommand: Command {
    public static let name = "plan"
    public static let summary = ["print the step plan both devices derive from a configuration",
                                 "(channels, modes, antenna permutations, access addresses, timing)"]

    /// The most procedures one run plans: every value of the 16-bit procedure counter once.
    public static let maximumProcedures = 65536

    public static let help = HelpText(
        usage: "usage: reflector-emu plan --config CONFIG.json --security SECURITY.json [--procedures N] [--json]",
        about: """
            Prints the deterministic step plan that initiator and reflector both derive from a CS
            configuration and the CS security material.
            """)

    public struct Options {
        public var configPath: String?
        public var securityPath: String?
        public var procedures = 1
        public var json = false
        public init() {}
    }

    public static var options: OptionTable<Options> {
        OptionTable(defaults: Options(), options: [
            .value(\.configPath, "--config", "FILE", .text, help: "Create Config and procedure parameters (see Examples/plan-config.json)"),
            .value(\.securityPath, "--security", "FILE", .text, help: "cs_iv (32 hex digits), cs_in (16), cs_pv (32), MSO first"),
            .value(\.procedures, "--procedures", "N", .integer(1...maximumProcedures),
                   help: "how many consecutive procedures to plan (1-65536, default 1; 65536 plans",
                   "every value of the 16-bit procedure counter once)"),
            .json(\.json, help: "one JSON object instead of a table"),
        ], helpColumn: 19, validate: { o throws(ToolError) in
            guard o.configPath != nil else { throw .usage("plan: --config CONFIG.json is required") }
            guard o.securityPath != nil else { throw .usage("plan: --security SECURITY.json is required") }
        })
    }

    public static func run(_ o: Options, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        let config = try JSONFile.read(o.configPath!) { (v) throws(ToolError) in try PlanConfigFile(json: v) }
        let security = try JSONFile.read(o.securityPath!) { (v) throws(ToolError) in try SecurityFile(json: v) }
        let report = PlanReport(config: config, security: security, count: o.procedures)
        if o.json {
            report.writeJSON(to: output)
        } else {
            report.writeTable(to: output)
        }
        return .success
    }
}
