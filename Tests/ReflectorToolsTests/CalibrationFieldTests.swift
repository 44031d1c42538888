import EmulatorMath
import Foundation
@testable import RangingEstimation
@testable import ReflectorTools
import CaptureEstimation
import Captures
import ToolFiles
import ToolJSON
import TestSupport
import Testing

/// A calibration on the one four-path procedure there is (Silicon Labs, data/field/
/// silabs-one-procedure): learned on the tones of even channels and tested on the odd ones,
/// and the other way round, so it is never tested on a tone it saw.
struct CalibrationFieldTests {
    static let silabs = VendorLogTests.silabs

    /// The procedure's tones, only the channels of `channels`.
    static func tones(_ channels: ChannelSubset) throws -> ToneSet {
        let capture = try CaptureReader.read(path: silabs, defaultRole: .initiator)
        let e = ProcedureEstimation.estimates(capture, reflector: nil, inlinePCT: nil, estimator: .ml, keepTones: true, channels: channels)
        guard let tones = e.first?.tones else { throw ToolError.badFile("no tones") }
        return tones
    }

    /// Each half's paths lie 1.93–1.94 m apart by their phase slopes; the other half's
    /// relative delays bring them within 0.11 m. The delays of the two halves agree within 2 cm
    /// (even: +0.451, +0.921, −0.451, −1.096 m; odd: +0.445, +0.926, −0.445, −1.110 m).
    @Test(arguments: [(ChannelSubset.even, ChannelSubset.odd), (.odd, .even)])
    func pathDelaysLearnedOnHalfTheChannelsBringTheOtherHalfsPathsTogether(learn: ChannelSubset, test: ChannelSubset) throws {
        let learned = try #require(BoardCalibrationLearner().relative([try Self.tones(learn)]))
        let other = try #require(BoardCalibrationLearner().relative([try Self.tones(test)]))
        for p in 0..<4 {
            #expect(abs(learned.calibration.pathDelays[p] - other.calibration.pathDelays[p]) < 0.02,
                    "path \(p): \(learned.calibration.pathDelays[p]) against \(other.calibration.pathDelays[p])")
        }
        let held = try Self.tones(test)
        let before = try #require(BoardCalibrationLearner.spread(held))
        let after = try #require(BoardCalibrationLearner.spread(learned.calibration.apply(to: held)))
        #expect(before > 1.9, "before: \(before) m")
        #expect(after < 0.11, "after: \(after) m")
    }

    /// The estimators' distances of the held-out half (all paths together): ml, IFFT, ESPRIT and
    /// the phase slope lie 0.89–0.92 m apart before and 0.23–0.24 m after.
    @Test(arguments: [(ChannelSubset.even, ChannelSubset.odd), (.odd, .even)])
    func estimatorsAgreeBetterOnTheCalibratedHalf(learn: ChannelSubset, test: ChannelSubset) throws {
        let calibration = try #require(BoardCalibrationLearner().relative([try Self.tones(learn)])).calibration
        let held = try Self.tones(test)
        let estimators: [EstimatorChoice] = [.ml, .ifft, .esprit, .kay]
        func range(_ tones: ToneSet) throws -> Double {
            let d = try estimators.map { try #require($0.estimator.estimate(tones)?.distance) }
            return d.max()! - d.min()!
        }
        let before = try range(held)
        let after = try range(calibration.apply(to: held))
        #expect(before > 0.85, "before: \(before) m")
        #expect(after < 0.3, "after: \(after) m")
    }

    /// The command does what the tests above do: `--calibrate paths` on the even channels writes
    /// a file that `--calibration` reads back, and the odd half's paths come together.
    @Test func theCommandLearnsWritesAndApplies() throws {
        let dir = try TemporaryDirectory("calibration")
        let file = dir.file("board.json")
        let learn = try EstimateCommand.run([Self.silabs, "--channels", "even", "--calibrate", "paths", "--out", file])
        #expect(learn.status == 0, "\(learn.message ?? "")")
        #expect(learn.output.contains("spread of the paths' phase-slope distances"))
        let read = try BoardCalibrationFile.read(path: file)
        #expect(read.calibration.reference == .relative && read.calibration.pathDelays.count == 4)
        let applied = try EstimateCommand.run([Self.silabs, "--channels", "odd", "--estimator", "kay", "--path-distances", "--calibration", file])
        let line = try #require(applied.output.split(separator: "\n").first { $0.contains("paths (kay)") })
        let spread = try #require(Double(line.split(separator: "spread ").last!.split(separator: " ").first!))
        #expect(spread < 0.11, "\(line)")
        // What the command refuses.
        #expect(throws: ToolError.self) { try EstimateCommand.run([Self.silabs, "--calibrate", "paths"]) }
        #expect(throws: ToolError.self) { try EstimateCommand.run([Self.silabs, "--out", file]) }
        #expect(throws: ToolError.self) { try EstimateCommand.run([Self.silabs, "--calibrate", "-1", "--out", file]) }
        #expect(throws: ToolError.self) { try EstimateCommand.run([Self.silabs, "--calibrate", "2", "--out", file, "--calibration", file]) }
    }

    /// Silicon Labs' RTT recording (10 procedures, mode 1, no tones): learned at a stated 9 m, a
    /// calibration of the RTT offset alone, whose file reads back and moves every procedure's
    /// `rtt` distance by the offset, the median to 9 m.
    @Test func anRTTOffsetAloneFromTheRTTRecording() throws {
        let dir = try TemporaryDirectory("calibration-rtt")
        let file = dir.file("rtt.json")
        let log = VendorLogTests.field + "/silabs-rtt/example_rtt_log_first10.txt"
        let learn = try EstimateCommand.run([log, "--estimator", "rtt", "--calibrate", "9", "--out", file])
        #expect(learn.status == 0, "\(learn.message ?? "")")
        let read = try BoardCalibrationFile.read(path: file)
        let offset = try #require(read.calibration.roundTripOffset)
        #expect(read.calibration.pathDelays.isEmpty && read.distance == 9)
        let capture = try CaptureReader.read(path: log, defaultRole: .initiator)
        let raw = ProcedureEstimation.estimates(capture, reflector: nil, inlinePCT: nil, estimator: .rtt).compactMap(\.distance)
        let calibrated = ProcedureEstimation.estimates(capture, reflector: nil, inlinePCT: nil, estimator: .rtt, calibration: read.calibration).compactMap(\.distance)
        #expect(raw.count == 10 && calibrated.count == 10)
        for (a, b) in zip(raw, calibrated) { #expect(abs(a - offset - b) < 1e-9) }
        #expect(abs(Quantile.of(calibrated, 0.5)! - 9) < 0.01)
    }
}
