import EmulatorMath
import Foundation
import RangingEstimation
@testable import ReflectorTools
@testable import ToolJSON
import ReflectorFirmware
import TestSupport
import Testing

/// The live page's models, pure: what one procedure's plots carry, and the options.
struct LiveViewModelTests {
    /// Free-space round-trip tones at `d` metres on the 72 allowed channels, all good; then a
    /// bad tone and an unrated one on channel 40 (measured last).
    static func tones(distance d: Double, gain: Double = 2) -> ToneSet {
        var path: [ToneSet.Tone] = []
        for k in (2...76).filter({ !(23...25).contains($0) }) {
            let f = (2402 + Double(k)) * 1e6
            path.append(ToneSet.Tone(channel: UInt8(k), value: Complex(phase: -4 * Double.pi * f * d / 299_792_458) * gain))
        }
        path.append(ToneSet.Tone(channel: 40, value: Complex(phase: 1) * 9, isGood: false))
        path.append(ToneSet.Tone(channel: 40, value: Complex(phase: 2), isGood: false, isRated: false))
        return ToneSet(paths: [path])
    }

    @Test func aProcedureIsItsChannelsPhaseImpulseAndSteps() throws {
        let view = ProcedureView(tones: Self.tones(distance: 4.2), truth: 4.2, estimate: 4.2)
        let p = try #require(view.paths.first)
        #expect(p.channels == (2...76).filter { !(23...25).contains($0) })
        // Each channel is the mean of its good tones: the bad tone (9 times stronger) neither
        // shows in the amplitude nor in the phase.
        #expect(p.amplitude.allSatisfy { abs($0 - 2.0 / 9) < 1e-9 }, "\(p.amplitude.prefix(3))")
        #expect(p.good.allSatisfy { $0 })
        // Unwrapped: the phase falls by 4π·d/c per Hz across the band, without a jump.
        let slope = (p.phase.last! - p.phase.first!) / Double(p.channels.last! - p.channels.first!)
        #expect(abs(slope - (-4 * Double.pi * 4.2 * 1e6 / 299_792_458)) < 1e-6, "\(slope)")
        #expect(zip(p.phase, p.phase.dropFirst()).allSatisfy { abs($1 - $0) < 1 })
        // Steps in measured order, with their quality.
        #expect(p.stepChannels.count == 74 && p.stepChannels.suffix(2) == [40, 40])
        #expect(p.stepQuality.prefix(72).allSatisfy { $0 == .good } && p.stepQuality.suffix(2) == [.bad, .unrated])
        // The impulse response: normalised, its first path at the distance, cut past 20 m.
        #expect(view.impulse.max() == 1)
        #expect(abs((view.firstPath ?? 0) - 4.2) < 0.5, "\(String(describing: view.firstPath))")
        let span = Double(view.impulse.count - 1) * view.binMetres
        #expect(span >= 20 && span < 40, "\(span)")
        // The multipath fit finds the one path, at the distance.
        #expect(view.fitPaths.count >= 1 && abs(view.fitPaths[0].distance - 4.2) < 0.05, "\(view.fitPaths)")
        #expect(view.fitPaths.map(\.amplitude).max() == 1)
    }

    @Test func itsJSONReadsBack() throws {
        let view = ProcedureView(tones: Self.tones(distance: 2), truth: nil, estimate: nil)
        var w = JSONWriter()
        view.json(procedureID: 17, &w)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any])
        #expect(object["procedure_id"] as? Int == 17)
        let paths = try #require(object["paths"] as? [[String: Any]])
        #expect((paths.first?["channels"] as? [Int])?.count == 72)
        #expect((paths.first?["step_quality"] as? [Int])?.suffix(2) == [1, 2])
        let impulse = try #require(object["impulse"] as? [String: Any])
        #expect((impulse["magnitude"] as? [Double])?.count == view.impulse.count)
    }

    @Test func noTonesNoPlots() {
        let view = ProcedureView(tones: ToneSet(paths: []), truth: nil, estimate: nil)
        #expect(view.paths.isEmpty && view.impulse.isEmpty && view.firstPath == nil)
    }

    /// The accessory's plots: one side's PCTs as they are, no impulse response or fit (its
    /// phase holds the reflector's LO phase), marked so in the JSON for the page.
    @Test func oneSidesPCTsArePlottedButNotEstimated() throws {
        let view = ProcedureView(oneSide: Self.tones(distance: 3))
        #expect(view.oneSided && view.impulse.isEmpty && view.fitPaths.isEmpty && view.firstPath == nil)
        #expect(view.paths.first?.channels.count == 72 && view.paths.first?.stepQuality.suffix(2) == [.bad, .unrated])
        var w = JSONWriter()
        view.json(procedureID: 3, &w)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any])
        #expect(object["side"] as? String == "reflector")
        var r = JSONWriter()
        ProcedureView(tones: Self.tones(distance: 3), truth: nil, estimate: nil).json(procedureID: 3, &r)
        #expect((try JSONSerialization.jsonObject(with: Data(r.bytes)) as? [String: Any])?["side"] as? String == "round trip")
    }

    /// `range`'s set-up names each of iOS's rules for the reflector it ranges, pass or FAIL.
    @Test func theReflectorIsCheckedAgainstIOSsRules() {
        var c = CSCapabilities.projectReflector()
        let good = RangingView.reflectorCheck(version: 0x11, capabilities: c)
        #expect(good.first == "reflector: LL version 0x11 (Bluetooth 6.3); CS roles: initiator, reflector; iOS requirements:")
        #expect(good.count == 2 + IOSRequirement.allCases.count && good.dropFirst().dropLast().allSatisfy { $0.hasPrefix("  [pass] ") })
        #expect(good.last == "an iPhone would range this reflector")
        c.subfeatures = []
        let old = RangingView.reflectorCheck(version: 0x0E, capabilities: c)
        #expect(old.filter { $0.hasPrefix("  [FAIL] ") } == ["  [FAIL] Bluetooth Core 6.3 or later (HCI_Version >= 0x11)",
                                                            "  [FAIL] Inline PCT Transfer in the reflector (subfeature bit 4)"])
        #expect(old.last == "an iPhone would not range this reflector (see FAIL above)")
        #expect(RangingView.reflectorCheck(version: nil, capabilities: nil) == ["reflector: LL version unknown, CS capabilities unknown"])
    }

    @Test func theViewFlags() throws {
        let o = try LoopbackOptions(arguments: ["--view", "8080", "--view-hold"])
        #expect(o.view.address?.authority == "127.0.0.1:8080" && o.view.hold)
        #expect(try LoopbackOptions(arguments: []).view.address == nil)
        #expect(try LoopbackOptions(arguments: ["--view", "[::1]:0"]).view.address?.host == "::1")
        #expect(throws: ToolError.self) { try LoopbackOptions(arguments: ["--view", "example.com:80"]) }
        #expect(LoopbackCommand.helpText.contains("--view [ADDR:]PORT"))
        #expect(RangeCommand.helpText.contains("--view-hold") && AccessoryCommand.helpText.contains("--view-hold")
                && EstimateCommand.helpText.contains("--view-hold"))
    }

    /// The binary copied away from its resource bundle: ranging runs as before, `--view`
    /// refuses to start and says where the page was looked for (`LiveViewPageTests`, in
    /// LiveViewTests, checks the page itself).
    @Test func aBinaryWithoutItsPageSaysSo() throws {
        try TemporaryDirectory.with("copied-binary") { dir in
            let copy = URL(fileURLWithPath: dir.file("reflector-emu"))
            try FileManager.default.copyItem(at: ToolProcess.executable, to: copy)
            let plain = try ToolProcess.run(copy, ["loopback", "--procedures", "1", "--no-progress"], timeout: 60)
            #expect(plain.status == 0 && plain.stdout.contains("summary:"), "\(plain.stderr)")
            let viewed = try ToolProcess.run(copy, ["loopback", "--procedures", "1", "--no-progress", "--view", "0"], timeout: 60)
            #expect(viewed.status == 2, "\(viewed.status): \(viewed.stderr)")
            #expect(viewed.stderr.contains(dir.file("reflector-emu_LiveView.resources/page.html")), "\(viewed.stderr)")
        }
    }
}
