import FirmwareHarness
import ReflectorFirmware

/// The committed test vectors of scripts/firmware-test, generated deterministically (a fixed
/// xorshift, no libm): main modes 1, 2 and 3 (mode-0 steps open every subevent), sub-mode
/// insertion, N_AP 1–4 (the reflector switching antennas: ACI 0, 4, 5, 6), inline PCT on and
/// off, channel selection #3b and #3c (hat and X), the sounding RTT types, main-mode
/// repetition; and one hostile vector (garbage, a bad CRC, an oversized length, an unknown
/// type, a refused payload, Run too early) that must be answered with the same Error frames.
struct VectorSet {
    struct Named {
        var name: String
        var bytes: [UInt8]
    }

    static var all: [Named] {
        var out: [Named] = []
        var seed: UInt32 = 1
        func add(_ name: String, _ c: CSConfiguration, aci: UInt8) {
            seed &+= 1
            out.append(Named(name: name, bytes: vector(c, aci: aci, seed: seed)))
        }
        let selections: [(String, ChannelSelectionAlgorithm)] = [
            ("3b", .algorithm3b), ("3c-hat", .algorithm3c(shape: .hat, jump: 3)), ("3c-x", .algorithm3c(shape: .x, jump: 5)),
        ]
        for (mainMode, rtt) in [(CSMode.mode2, RTTType.accessAddressOnly), (.mode3, .sounding32)] {
            for nap in 1...4 {
                for inline in [true, false] {
                    for (k, (selName, selection)) in selections.enumerated() where k == 0 || k == (nap % 2) + 1 {
                        let c = configuration(main: mainMode, rtt: rtt, nap: nap, inline: inline, selection: selection)
                        add("mode\(mainMode.rawValue)-nap\(nap)-\(inline ? "ipt" : "noipt")-\(selName)", c, aci: aci(nap))
                    }
                }
            }
        }
        add("mode1-3b", configuration(main: .mode1, rtt: .accessAddressOnly, nap: 1, inline: false, selection: .algorithm3b), aci: 0)
        add("mode1-sounding96-3c-x", configuration(main: .mode1, rtt: .sounding96, nap: 1, inline: false,
                                                   selection: .algorithm3c(shape: .x, jump: 2)), aci: 0)
        var sub = configuration(main: .mode2, rtt: .sounding32, nap: 2, inline: true, selection: .algorithm3b)
        sub.subMode = .mode1
        add("mode2-sub1-nap2-ipt-3b", sub, aci: 4)
        sub = configuration(main: .mode1, rtt: .accessAddressOnly, nap: 1, inline: false, selection: .algorithm3c(shape: .hat, jump: 8))
        sub.subMode = .mode2
        add("mode1-sub2-nap1-3c-hat", sub, aci: 0)
        var repetition = configuration(main: .mode2, rtt: .accessAddressOnly, nap: 1, inline: true, selection: .algorithm3b)
        repetition.mainModeRepetition = 2
        add("mode2-repetition2-nap1-ipt-3b", repetition, aci: 0)
        out.append(Named(name: "hostile", bytes: hostile(seed: seed &+ 1)))
        return out
    }

    /// ACI with the reflector switching `nap` antennas.
    static func aci(_ nap: Int) -> UInt8 { [0, 4, 5, 6][nap - 1] }

    static func configuration(main: CSMode, rtt: RTTType, nap: Int, inline: Bool, selection: ChannelSelectionAlgorithm) -> CSConfiguration {
        CSConfiguration(mainMode: main, subMode: nil, minMainModeSteps: 2, maxMainModeSteps: 4, mainModeRepetition: 0,
                        mode0Steps: 2, role: .reflector, rttType: rtt, csSyncPHY: .le1M, channelMap: .allowed,
                        channelMapRepetition: 1, channelSelection: selection, inlinePCT: inline,
                        timing: CSTiming(tIP1: 80, tIP2: 80, tFCS: 100, tPM: 40, tSW: nap > 1 ? 10 : 0))
    }

    static let schedule = ProcedureSchedule(subeventLength: 10_000, subeventInterval: 12_500, maxProcedureLength: 50_000)

    static func vector(_ c: CSConfiguration, aci: UInt8, seed: UInt32) -> [UInt8] {
        var rng = XorShift(state: seed &* 0x9E37_79B9 | 1)
        var out = frame(.configuration, TestVector.encodeConfiguration(c, aci: AntennaConfiguration(index: aci)!, schedule: schedule, procedures: 2))
        let security = SecurityMaterial(
            iv: Block128(high: rng.next64(), low: rng.next64()), instantiationNonce: rng.next64(),
            personalization: Block128(high: rng.next64(), low: rng.next64()))
        out += frame(.security, security.payload)
        out += frame(.receptions, receptions(&rng).payload)
        out += frame(.run, [])
        return out
    }

    /// 37 tones (I/Q within ±2047 with a sixteenth's fraction, some saturating, one silent) and
    /// 7 CS_SYNC receptions (one missed, one with bit errors).
    static func receptions(_ rng: inout XorShift) -> ReceptionPool {
        var tones: [ToneReception] = []
        for k in 0..<37 {
            let i = Float(Int(rng.next() % 4400) - 2200) + Float(rng.next() % 16) / 16
            let q = Float(Int(rng.next() % 4400) - 2200) + Float(rng.next() % 16) / 16
            let iq = k == 5 ? IQSample.zero : IQSample(i: i, q: q)
            tones.append(ToneReception(iq: iq, snrDB: Float(Int(rng.next() % 40) - 2)))
        }
        var syncs: [SyncReception] = []
        for k in 0..<7 {
            syncs.append(SyncReception(detected: k != 3, accessAddressBitErrors: k == 5 ? 2 : 0,
                                       rssi: Int8(-40 - Int(rng.next() % 50)),
                                       arrivalOffsetHalfNanoseconds: Int32(Int(rng.next() % 2000) - 1000)))
        }
        return ReceptionPool(tones: tones, syncs: syncs)
    }

    static func hostile(seed: UInt32) -> [UInt8] {
        var rng = XorShift(state: seed | 1)
        let c = configuration(main: .mode2, rtt: .accessAddressOnly, nap: 2, inline: true, selection: .algorithm3b)
        var out: [UInt8] = [0x00, 0x13, 0x37, 0xFF]                      // garbage before a magic
        var bad = frame(.security, [UInt8](repeating: 7, count: 40))
        bad[bad.count - 1] ^= 0x55                                          // bad CRC
        out += bad
        out += [FrameFormat.magic, 0x01, 0xFF, 0x7F]                        // length 32767: too long
        out += frame(.run, [])                                              // Run before a vector
        out += frame(FrameTypeRaw(0x42), [1, 2, 3])                         // unknown type
        var config = TestVector.encodeConfiguration(c, aci: AntennaConfiguration(index: 4)!, schedule: schedule, procedures: 2)
        config[5] = 9                                                       // Mode_0_Steps 9
        out += frame(.configuration, config)
        out += frame(.receptions, [0])                                      // no tones
        out += frame(.configuration, Array(config.prefix(12)))              // truncated
        config[5] = 3
        out += vector(c, aci: 4, seed: rng.next())
        return out
    }

    struct FrameTypeRaw { var raw: UInt8; init(_ raw: UInt8) { self.raw = raw } }

    static func frame(_ type: FrameType, _ payload: [UInt8]) -> [UInt8] { frame(FrameTypeRaw(type.rawValue), payload) }

    static func frame(_ type: FrameTypeRaw, _ payload: [UInt8]) -> [UInt8] {
        var sink = ByteSink()
        FrameFormat.write(type: type.raw, payload: payload, to: &sink)
        return sink.bytes
    }
}

/// Marsaglia's xorshift32: the same numbers on every machine.
struct XorShift {
    var state: UInt32
    mutating func next() -> UInt32 {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        return state
    }
    mutating func next64() -> UInt64 { UInt64(next()) << 32 | UInt64(next()) }
}
