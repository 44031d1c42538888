import Foundation
@testable import RangingEstimation
@testable import ToolFiles
@testable import ReflectorTools
import ToolJSON
import Testing

/// The calibration file and a board profile's `calibration` object: what is read, what is
/// refused and with which key path.
struct BoardCalibrationFileTests {
    static func read(_ text: String) throws(ToolError) -> BoardCalibrationFile {
        try BoardCalibrationFile.calibration(in: JSONValue.parse(bytes: Array(text.utf8)))
    }

    static func problem(_ text: String) -> String? {
        do throws(ToolError) {
            _ = try read(text)
            return nil
        } catch {
            return error.description
        }
    }

    static let absolute = #"{"format": "reflector-emu board calibration", "reference": "absolute", "path_delays_m": [0.41, 0.93, 0.12, 1.62], "rtt_offset_m": 0.35, "distance_m": 1, "estimator": "ml", "procedures": 39, "source": "capture.txt"}"#

    @Test func aFileReadsAndWritesBackAsItself() throws {
        let file = try Self.read(Self.absolute)
        #expect(file.calibration == BoardCalibration(pathDelays: [0.41, 0.93, 0.12, 1.62], roundTripOffset: 0.35, reference: .absolute))
        #expect(file.distance == 1 && file.estimator == "ml" && file.procedures == 39 && file.source == "capture.txt")
        #expect(try BoardCalibrationFile(json: JSONValue.parse(bytes: file.json)) == file)
        let relative = try Self.read(#"{"format": "reflector-emu board calibration", "reference": "relative", "path_delays_m": [-0.2, 0.2]}"#)
        #expect(relative.calibration.roundTripOffset == nil && relative.distance == nil)
    }

    @Test func errorsNameTheKeyWhatWasWrongAndWhatIsAllowed() {
        let head = #""format": "reflector-emu board calibration", "#
        let cases: [(String, String)] = [
            (#"{"reference": "relative", "path_delays_m": [0]}"#, #"key "format" is missing"#),
            ("{" + head + #""reference": "relative", "path_delays_m": [0], "path_delay": 1}"#, #"key "path_delay" is not a calibration key; allowed: format, reference"#),
            ("{" + head + #""reference": "sideways", "path_delays_m": [0]}"#, #"key "reference" is "sideways"; allowed: one of "relative", "absolute""#),
            ("{" + head + #""reference": "relative", "path_delays_m": [0, 0, 0, 0, 0]}"#, #"key "path_delays_m" is an array; allowed: a list of up to 4 delays"#),
            ("{" + head + #""reference": "relative"}"#, #"key "path_delays_m" is missing; allowed: a list of up to 4 delays"#),
            ("{" + head + #""reference": "relative", "path_delays_m": [0, 1e400]}"#, "beyond the range of a double"),
            ("{" + head + #""reference": "relative", "path_delays_m": [0, 99999999999999999999999]}"#, #"key "path_delays_m[1]" is 99999999999999999999999; allowed: a number from -74 to 74 m"#),
            ("{" + head + #""reference": "relative", "path_delays_m": [0, "1"]}"#, #"key "path_delays_m[1]" is "1""#),
            ("{" + head + #""reference": "absolute", "path_delays_m": [0]}"#, #"key "distance_m" is missing; allowed with reference "absolute""#),
            ("{" + head + #""reference": "relative", "path_delays_m": [0], "distance_m": 2}"#, #"key "distance_m" is 2; allowed with reference "relative": none"#),
            ("{" + head + #""reference": "relative", "path_delays_m": [0], "rtt_offset_m": 0.3}"#, #"key "rtt_offset_m" is set; allowed with reference "relative""#),
            ("{" + head + #""reference": "absolute", "distance_m": 1, "path_delays_m": [0], "procedures": 18446744073709551616}"#, #"key "procedures" is 18446744073709551616; allowed: an integer from 0 to 2147483647"#),
            ("[1]", "the top level must be a JSON object, found an array"),
        ]
        for (text, expected) in cases {
            let p = Self.problem(text)
            #expect(p?.contains(expected) == true, "\(text): \(p ?? "accepted")")
        }
    }

    /// A board profile may carry the calibration; `--calibration PROFILE` takes it, and an
    /// error inside it names the key path from the profile's top.
    @Test func aBoardProfileCarriesItsCalibration() throws {
        let profile = #"{"name": "b", "antennas": 1, "bluetooth_version": "6.0", "calibration": {"reference": "relative", "path_delays_m": [0.1]}}"#
        #expect(try Self.read(profile).calibration.pathDelays == [0.1])
        #expect(try BoardProfile.parse(Data(profile.utf8)).calibration?.calibration.pathDelays == [0.1])
        let bad = #"{"name": "b", "antennas": 1, "bluetooth_version": "6.0", "calibration": {"reference": "relative", "path_delays_m": [100]}}"#
        #expect(Self.problem(bad)?.contains(#"key "calibration.path_delays_m[0]" is 100"#) == true, "\(Self.problem(bad) ?? "")")
        let none = #"{"name": "b", "antennas": 1, "bluetooth_version": "6.0"}"#
        #expect(Self.problem(none)?.contains(#"key "calibration" is missing"#) == true)
        // The profiles in Hardware/boards still read (they carry none).
        #expect(try BoardProfile.parse(Data(none.utf8)).calibration == nil)
    }

    /// `loopback --antenna-delays` gives a generated board its delays, and `--calibration` the
    /// committed calibration of that board: the mean error at 5 m from +0.7 m to within 5 cm.
    @Test func loopbackRangesAGeneratedBoardWithItsCalibration() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
        func meanError(_ extra: [String]) throws -> Double {
            let options = try #require(try LoopbackCommand.parse(["--antenna-paths", "4", "--antenna-delays", "0.4,0.9,0.1,1.2", "--distance", "5",
                                                                  "--procedures", "5", "--no-progress"] + extra))
            let rows = try LoopbackCommand.simulate(options, output: CommandOutput.memory())
            let errors = rows.compactMap(\.error)
            #expect(errors.count == 5)
            return errors.reduce(0, +) / Double(errors.count)
        }
        let before = try meanError([])
        let after = try meanError(["--calibration", root + "/Examples/generated-board-calibration.json"])
        #expect(before > 0.6, "before: \(before) m")
        #expect(abs(after) < 0.05, "after: \(after) m")
    }
}
