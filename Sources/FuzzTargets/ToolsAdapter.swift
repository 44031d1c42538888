import Foundation
import ReflectorFirmware
import ReflectorTools

/// Every call the fuzz targets make into ReflectorTools, in one file, so that when the tool's
/// capture and file-reading code moves (Capture/, Files/, a new JSON parser) only this file is
/// re-pointed. Each function takes the octets a user's file would hold and returns plain
/// values; "refused" is a normal answer (nil or a count), a trap is a finding.
enum ToolsAdapter {
    // MARK: Captures (reflector-emu estimate)

    struct CaptureReading {
        var procedureOffsets: [Int]
        var problemOffsets: [Int]
        var estimates: Int
    }

    /// Reads a btsnoop file as `reflector-emu estimate` does (CaptureProcedures, then
    /// ProcedureEstimation with one of the four estimators), optionally with a reflector capture.
    static func estimate(capture: [UInt8], reflector: [UInt8]?, estimator: Int, defaultRoleIsReflector: Bool, inlinePCT: Bool?) -> CaptureReading {
        let role: CSRole = defaultRoleIsReflector ? .reflector : .initiator
        let procedures = CaptureProcedures(bytes: capture, defaultRole: role)
        let peer = reflector.map { CaptureProcedures(bytes: $0, defaultRole: .reflector) }
        let choice = EstimatorChoice.allCases[estimator % EstimatorChoice.allCases.count]
        let estimates = ProcedureEstimation.estimates(procedures, reflector: peer, inlinePCT: inlinePCT, estimator: choice)
        return CaptureReading(procedureOffsets: procedures.procedures.map(\.offset), problemOffsets: procedures.problems.map(\.offset),
                              estimates: estimates.count)
    }

    struct AnyCaptureReading {
        var procedureOffsets: [Int]
        var estimates: Int
        /// The file held both sides (only its initiator's procedures are estimated).
        var bothSides: Bool
    }

    /// Reads any capture file as `reflector-emu estimate` does (format by content), then the default estimator.
    static func estimate(anyCapture bytes: [UInt8]) -> AnyCaptureReading {
        let procedures = CaptureReader.read(bytes: bytes, defaultRole: .initiator)
        let estimates = ProcedureEstimation.estimates(procedures, reflector: nil, inlinePCT: nil, estimator: .default)
        let roles = Set(procedures.procedures.map(\.role))
        return AnyCaptureReading(procedureOffsets: procedures.procedures.map(\.offset), estimates: estimates.count, bothSides: roles.count == 2)
    }

    struct VendorLogReading {
        var procedureLines: [Int]
        var problemLines: [Int]
        var initiatorProcedures: Int
        var estimates: Int
    }

    /// Reads a vendor's step-data log (`format` "ncs", "silabs", "silabs-json" or "silabs-serial") as `reflector-emu estimate`
    /// does, then estimates it with one of the estimators (a dump holding both sides pairs with itself).
    static func readVendorLog(_ bytes: [UInt8], format: String, estimator: Int, defaultRoleIsReflector: Bool) -> VendorLogReading {
        let role: CSRole = defaultRoleIsReflector ? .reflector : .initiator
        let procedures = switch format {
        case "ncs": VendorLogReaders.ncs(bytes, defaultRole: role)
        case "silabs-json": VendorLogReaders.siliconLabsJSON(bytes)
        case "silabs-serial": VendorLogReaders.siliconLabsSerial(bytes)
        default: VendorLogReaders.siliconLabs(bytes)
        }
        let choice = EstimatorChoice.allCases[estimator % EstimatorChoice.allCases.count]
        let estimates = ProcedureEstimation.estimates(procedures, reflector: nil, inlinePCT: nil, estimator: choice)
        let initiators = procedures.procedures.filter { $0.role == .initiator }.count
        return VendorLogReading(procedureLines: procedures.procedures.map(\.offset), problemLines: procedures.problems.map(\.offset),
                                initiatorProcedures: initiators == 0 ? procedures.procedures.count : initiators, estimates: estimates.count)
    }

    /// A Silicon Labs dump written as their parser's JSON (for seeds).
    static func siliconLabsJSON(fromDump bytes: [UInt8]) -> [UInt8] {
        Array(VendorLogReaders.siliconLabsJSON(writing: VendorLogReaders.siliconLabs(bytes)).utf8)
    }

    // MARK: JSON files

    /// The tool's JSON parser (`JSONValue.parse`: linear, exact integers, depth and size capped).
    static func parseJSON(_ bytes: [UInt8]) -> JSONValue? { try? JSONValue.parse(Data(bytes)) }

    /// A plan configuration (`plan --config`); when it is accepted, one procedure is planned
    /// with the spec's sample security material, as `plan` prints it.
    static func readPlanConfig(_ bytes: [UInt8]) -> Bool {
        guard let json = parseJSON(bytes), let config = try? PlanConfigFile(json: json) else { return false }
        _ = PlanReport(config: config, security: sampleSecurity, count: 1).table
        return true
    }

    /// CS security material (`plan --security`); an accepted file instantiates the DRBG.
    static func readSecurity(_ bytes: [UInt8]) -> Bool {
        guard let json = parseJSON(bytes), let security = try? SecurityFile(json: json) else { return false }
        _ = security.drbg
        return true
    }

    /// The accessory's bond file: an accepted file writes back to a file that reads the same.
    static func readBonds(_ bytes: [UInt8]) -> Bool {
        guard let json = parseJSON(bytes), let file = try? BondFile(json: json) else { return false }
        let again = parseJSON(file.json).flatMap { try? BondFile(json: $0) }
        require(again == file, "a bond file that does not read back as itself")
        return true
    }

    /// A DL-TDoA deployment (`tdoa DEPLOYMENT.json`, `tdoa plan`).
    static func readDeployment(_ bytes: [UInt8]) -> Bool {
        guard let json = parseJSON(bytes) else { return false }
        return (try? DeploymentFile.parse(json)) != nil
    }

    /// A board profile (Hardware/boards/*.json); an accepted one gives its capabilities.
    static func readBoardProfile(_ bytes: [UInt8]) -> Bool {
        guard let json = parseJSON(bytes), let profile = try? BoardProfile(json: json) else { return false }
        _ = profile.capabilities
        return true
    }

    /// A `--calibration FILE` file (a calibration, or a board profile with one): an accepted
    /// one writes back to JSON that reads as itself, with finite delays.
    static func readCalibration(_ bytes: [UInt8]) -> Bool {
        guard let json = parseJSON(bytes), let file = try? BoardCalibrationFile.calibration(in: json) else { return false }
        let again = parseJSON(file.json).flatMap { try? BoardCalibrationFile(json: $0) }
        require(again == file, "a calibration that does not read back as itself")
        require(file.calibration.pathDelays.allSatisfy(\.isFinite) && file.calibration.roundTripOffset?.isFinite != false, "a calibration that is no number")
        return true
    }

    /// A `nearby --scenario FILE` file: the flags it stands for, through `nearby`'s own option
    /// table (the checks the command applies); an accepted scenario is built, without running
    /// it. In memory: reading the file is `JSONFile.read`'s, which every reader shares.
    static func readScenario(_ bytes: [UInt8]) -> Bool {
        guard let flags = try? ScenarioFile.parse(Data(bytes)), let options = try? NearbyOptions(arguments: flags) else { return false }
        _ = options.scenario
        return true
    }

    /// A `sweep SPEC.json` file, through sweep's own converters (`SweepSpecFile`): an accepted
    /// spec within the run limits writes back (the "spec" object of the outputs and shards) to
    /// JSON that reads back as the same spec, and a small one expands into its grid.
    static func readSweepSpec(_ bytes: [UInt8]) -> Bool {
        var spec = SweepSpec()
        guard (try? SweepSpecFile.parse(Data(bytes), into: &spec)) != nil, (try? spec.validate()) != nil else { return false }
        var j = JSONWriter()
        spec.json(&j)
        var again = SweepSpec()
        let reread = (try? SweepSpecFile.apply(JSONValue.parse(bytes: j.bytes), to: &again)) != nil
        require(reread && again == spec, "a sweep spec that does not read back as itself: \(String(decoding: j.bytes, as: UTF8.self))")
        if spec.cellCount <= 1000 { _ = SweepGrid(spec).cells.map(\.key) }
        return true
    }

    /// A `sweep merge` shard file: an accepted shard writes back to a file that reads back bit
    /// for bit (every error and bound a round-trip double), and the shard of a one-shard split merges into
    /// a whole run whose statistics, table, CSV, JSON and chart are made.
    static func readSweepShard(_ bytes: [UInt8]) -> Bool {
        guard let json = parseJSON(bytes), let shard = try? SweepShard(json: json) else { return false }
        var j = JSONWriter()
        shard.json(&j)
        let again = parseJSON(j.bytes).flatMap { try? SweepShard(json: $0) }
        require(again.map { shardBits($0) == shardBits(shard) && $0.spec == shard.spec && $0.selection == shard.selection } ?? false,
                "a sweep shard that does not read back bit for bit")
        if shard.selection.count == 1, shard.spec.cellCount <= 1000, let merged = try? SweepShard.merge([("shard.json", shard)]) {
            let statistics = SweepStatistics(grid: merged.grid, realizations: merged.realizations)
            _ = SweepCommand.outputs(statistics)
            _ = SweepReport.table(statistics)
        }
        return true
    }

    static func shardBits(_ shard: SweepShard) -> [[[UInt64]]] {
        shard.realizations.map { $0.errors.map { $0.map(\.bitPattern) } + [$0.bounds.map(\.bitPattern)] }
    }

    /// Shards of real runs for the seeds: a tiny sweep (two grid points, two estimators, two
    /// seeds of three procedures) whole and split in two, as `sweep --shard` writes them.
    static func sweepShardSeeds() -> [[UInt8]] {
        var spec = SweepSpec()
        spec.distances = [2]
        spec.channels = ["free", "two-ray:0.5-5:0.3-0.9"].compactMap(AirChannelFamily.init)
        spec.estimators = [.kay, .ifft]
        spec.seeds = 2
        spec.procedures = 3
        let grid = SweepGrid(spec)
        return [SweepShard.Selection(index: 0, count: 1)!, SweepShard.Selection(index: 1, count: 2)!].map { selection in
            let realizations = SweepRunner.run(grid, indices: grid.realizations(in: selection), workers: 1)
            var j = JSONWriter()
            SweepShard(spec: spec, selection: selection, realizations: realizations).json(&j)
            return j.bytes
        }
    }

    nonisolated(unsafe) static let sampleSecurity: SecurityFile = {
        let json = try! JSONValue.parse(Data(#"{"cs_iv": "E10BC28A0BFDDFE93E7F5186E0CA0B3B", "cs_in": "9FF477C18673840D", "cs_pv": "C980DEDF9882ED4464A674967868F143"}"#.utf8))
        return try! SecurityFile(json: json)
    }()

}
