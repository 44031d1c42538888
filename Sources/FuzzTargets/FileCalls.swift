import Foundation
import RangingEstimation
import ToolFiles
import ToolJSON

/// Every call the JSON-file targets make into ToolJSON and ToolFiles directly (the files whose
/// readers need a command, plan's, nearby's and sweep's, go through `ToolsAdapter`). Each
/// function takes the octets a user's file would hold; "refused" is a normal answer (nil or
/// false), a trap is a finding.
enum FileCalls {
    /// The tool's JSON parser (`JSONValue.parse`: linear, exact integers, depth and size capped).
    static func parseJSON(_ bytes: [UInt8]) -> JSONValue? { try? JSONValue.parse(Data(bytes)) }

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

    nonisolated(unsafe) static let sampleSecurity: SecurityFile = {
        let json = try! JSONValue.parse(Data(#"{"cs_iv": "E10BC28A0BFDDFE93E7F5186E0CA0B3B", "cs_in": "9FF477C18673840D", "cs_pv": "C980DEDF9882ED4464A674967868F143"}"#.utf8))
        return try! SecurityFile(json: json)
    }()

    /// A `--calibration FILE` file (a calibration, or a board profile with one): an accepted
    /// one writes back to JSON that reads as itself, with finite delays.
    static func readCalibration(_ bytes: [UInt8]) -> Bool {
        guard let json = parseJSON(bytes), let file = try? BoardCalibrationFile.calibration(in: json) else { return false }
        let again = parseJSON(file.json).flatMap { try? BoardCalibrationFile(json: $0) }
        require(again == file, "a calibration that does not read back as itself")
        require(file.calibration.pathDelays.allSatisfy(\.isFinite) && file.calibration.roundTripOffset?.isFinite != false, "a calibration that is no number")
        return true
    }
}
