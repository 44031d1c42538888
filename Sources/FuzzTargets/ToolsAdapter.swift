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

    /// A `nearby --scenario FILE` file: the flags it stands for, through `nearby`'s own option
    /// table (the checks the command applies); an accepted scenario is built, without running
    /// it. In memory: reading the file is `JSONFile.read`'s, which every reader shares.
    static func readScenario(_ bytes: [UInt8]) -> Bool {
        guard let flags = try? ScenarioFile.parse(Data(bytes)), let options = try? NearbyOptions(arguments: flags) else { return false }
        _ = options.scenario
        return true
    }

    nonisolated(unsafe) static let sampleSecurity: SecurityFile = {
        let json = try! JSONValue.parse(Data(#"{"cs_iv": "E10BC28A0BFDDFE93E7F5186E0CA0B3B", "cs_in": "9FF477C18673840D", "cs_pv": "C980DEDF9882ED4464A674967868F143"}"#.utf8))
        return try! SecurityFile(json: json)
    }()

}
