@testable import EmulatorMath
import Foundation
@testable import RadioWorld
@testable import ReflectorFirmware

/// Two real step engines over one Air, driven in loopback order (initiator sends, reflector
/// answers, initiator measures), as the emulator's loopback driver does.
struct AirLink {
    let air: Air
    var initiatorRadio: AirRadio
    var reflectorRadio: AirRadio
    let initiator: CSStepEngine
    let reflector: CSStepEngine
    let antennas: AntennaConfiguration

    init(_ scenario: AirScenario, aci: UInt8 = 0, inlinePCT: Bool = true, mainMode: CSMode = .mode2,
         timing: CSTiming = CSTiming(tIP1: 30, tIP2: 20, tFCS: 100, tPM: 10, tSW: 10), rttType: RTTType = .accessAddressOnly) {
        air = Air(scenario: scenario)
        initiatorRadio = air.radio(.initiator)
        reflectorRadio = air.radio(.reflector, recordsSelections: true)
        var config = CSConfiguration(mainMode: mainMode, inlinePCT: inlinePCT, timing: timing)
        config.rttType = rttType
        config.role = .reflector
        var ic = config
        ic.role = .initiator
        antennas = AntennaConfiguration(index: aci)!
        initiator = CSStepEngine(configuration: ic, antennaConfiguration: antennas)
        reflector = CSStepEngine(configuration: config, antennaConfiguration: antennas)
    }

    var antennaPaths: Int { antennas.antennaPaths }

    mutating func exchange(_ step: PlannedStep, at time: UInt64) -> (initiator: SubeventStep, reflector: SubeventStep) {
        initiator.transmit(step, at: time, radio: &initiatorRadio)
        let r = reflector.run(step, at: time, radio: &reflectorRadio)
        let i = initiator.receive(step, at: time, radio: &initiatorRadio)
        return (i, r)
    }

    /// The timeline the engines use for `mode`.
    func timeline(_ mode: CSMode) -> StepTimeline {
        StepTimeline(mode: mode, timing: initiator.configuration.timing, antennaPaths: antennaPaths,
                     phy: initiator.configuration.csSyncPHY, rttType: initiator.configuration.rttType)
    }

    /// The antenna pair of tone slot `slot` under `permutation`.
    func path(permutation: UInt8, slot: Int) -> AntennaPath {
        let p = AntennaPermutation.path(antennaPaths: antennaPaths, index: Int(permutation), slot: slot)!
        return AntennaPath(index: p, configuration: antennas)
    }

    static func step(mode: CSMode, channel: UInt8 = 40, permutation: UInt8 = 0, ext: ToneExtension = .both) -> PlannedStep {
        PlannedStep(index: 0, subevent: 0, kind: mode == .mode0 ? .mode0 : .main, mode: mode, channel: channel,
                    accessAddresses: mode.hasCSSync ? AccessAddressPair(initiator: 0x1234_5678, reflector: 0x9ABC_DEF0) : nil,
                    antennaPermutationIndex: permutation, toneExtension: ext, soundingMarker: nil, startMicroseconds: 0, durationMicroseconds: 0)
    }

    /// The 72 CS channels (2...22, 26...76).
    static let csChannels: [UInt8] = Array(2...22) + Array(26...76)
}

enum AirMath {
    static func wrap(_ x: Double) -> Double { atan2(sin(x), cos(x)) }
    static func phase(_ p: PhaseCorrectionTerm) -> Double { atan2(Double(p.q), Double(p.i)) }
    static func complex(_ p: PhaseCorrectionTerm) -> Complex { Complex(Double(p.i), Double(p.q)) }
    static func tones(_ s: SubeventStep) -> ToneStepData? {
        switch s.data {
        case .mode2(let t), .mode3(_, let t): return t
        default: return nil
        }
    }
    /// Measured_Freq_Offset (15-bit signed, 0.01 ppm) in ppm, nil when not available.
    static func ppm(_ field: UInt16?) -> Double? {
        guard let field, field != Mode0StepData.notAvailableFrequencyOffset else { return nil }
        let signed = Int16(bitPattern: field << 1) >> 1
        return Double(signed) / 100
    }
}
