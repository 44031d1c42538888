import DLTDoA
import ToolJSON

/// `reflector-emu tdoa study`: the receiver judged over generated deployments, not one room
/// (`DLTDOAStudy`): the DL-TDoA figures of docs/commands/tdoa.md and docs/figures.md.
public enum TDoAStudyCommand: Command {
    public static let name = "tdoa study"
    public static let summary = ["the DL-TDoA receiver over generated deployments, by noise level"]

    public static let help = HelpText(
        usage: "usage: reflector-emu tdoa study [--deployments N] [--seed S] [--json]",
        about: """
            Generates N deployments (random rooms 5-40 m, 2.5-8 m high; ceiling, two-height, wall and
            corridor layouts; timestamp noise 0.05-0.3 m; losses; crystals), walks each twice end to
            end (clean, and with one anchor behind an obstacle), and pools the fixes by noise level:
            RMSE against the Cramér-Rao bound of the line-of-sight anchors (all fixes, and those with
            GDOP <= 3), fixes outside the deployment's volume, epochs with no fix (no_fix: the solver
            failed with enough differences, or a block between fixes passed without one),
            and how often the shadowed anchor and the good ones were left out.
            """)

    public struct Options {
        public var deployments: UInt64 = 60
        public var seed: UInt64 = 1
        public var json = false
        public init() {}
    }

    public static var options: OptionTable<Options> {
        OptionTable(defaults: Options(), options: [
            .value(\.deployments, "--deployments", "N", .unsigned, help: "deployments to generate (1-10000, default 60)"),
            .value(\.seed, "--seed", "S", .unsigned, help: "the first deployment's seed (default 1; then S+1, ...)"),
            .json(\.json, help: "one JSON object per noise band"),
        ], helpColumn: 20, messagePrefix: "tdoa study: ")
    }

    public static func run(_ o: Options, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        guard (1...10_000).contains(o.deployments) else {
            throw .usage("tdoa study: --deployments \(o.deployments); allowed: 1-10000")
        }
        let (first, overflow) = o.seed.addingReportingOverflow(o.deployments - 1)
        guard !overflow else { throw .usage("tdoa study: --seed \(o.seed) with --deployments \(o.deployments) runs past the largest seed") }
        let bands = DLTDOAStudy().run(seeds: o.seed...first)
        if o.json {
            for b in bands { output.jsonLine { j in json(b, &j) } }
            return .success
        }
        output.line("DL-TDoA over \(o.deployments) generated deployments (seeds \(o.seed)-\(first)), each walked clean and with one anchor shadowed")
        output.line("  noise_m    walk      deploy  fixes  rmse_m  crlb_m  ratio  gdop<=3  outside  no_fix  shadowed_out  good_out")
        for b in bands {
            for (name, t) in [("clean", b.clean), ("shadowed", b.shadowed)] {
                let band = fixed(b.noise.lowerBound, 2) + "-" + fixed(b.noise.upperBound, 2)
                output.line("  " + band.padding(toLength: 11, withPad: " ", startingAt: 0) + name.padding(toLength: 9, withPad: " ", startingAt: 0)
                            + pad(String(t.deployments), 7) + pad(String(t.fixes), 7) + pad(fixed(t.rmse, 3), 8) + pad(fixed(t.bound, 3), 8)
                            + pad(fixed(t.ratio, 2), 7) + pad(fixed(t.wellPosedRatio, 2), 9) + pad(String(t.outsideVolume), 9)
                            + pad(String(t.unsolvedEpochs + t.skippedEpochs), 8)
                            + pad(name == "clean" ? "-" : percent(t.shadowedRejectionRate), 14) + pad(percent(t.goodRejectionRate), 10))
            }
        }
        return .success
    }

    static func percent(_ v: Double) -> String { v.isNaN ? "-" : fixed(v * 100, 1) + " %" }

    static func json(_ b: DLTDOAStudy.Band, _ j: inout JSONWriter) {
        j.object { j in
            j.field("noise_m", [b.noise.lowerBound, b.noise.upperBound], decimals: 3)
            for (name, t) in [("clean", b.clean), ("shadowed", b.shadowed)] {
                j.key(text: name)
                j.object { j in
                    j.field("deployments", t.deployments)
                    j.field("fixes", t.fixes)
                    j.field("unbounded_fixes", t.unboundedFixes)
                    j.field("rmse_m", t.rmse.isNaN ? nil : t.rmse, decimals: 4)
                    j.field("crlb_m", t.bound.isNaN ? nil : t.bound, decimals: 4)
                    j.field("ratio", t.ratio.isNaN ? nil : t.ratio, decimals: 3)
                    j.field("well_posed_fixes", t.wellPosedFixes)
                    j.field("well_posed_ratio", t.wellPosedRatio.isNaN ? nil : t.wellPosedRatio, decimals: 3)
                    j.field("outside_volume", t.outsideVolume)
                    j.field("unsolved_epochs", t.unsolvedEpochs)
                    j.field("skipped_epochs", t.skippedEpochs)
                    j.field("shadowed_rejection", t.shadowedRejectionRate.isNaN ? nil : t.shadowedRejectionRate, decimals: 4)
                    j.field("good_rejection", t.goodRejectionRate.isNaN ? nil : t.goodRejectionRate, decimals: 4)
                }
            }
        }
    }
}
