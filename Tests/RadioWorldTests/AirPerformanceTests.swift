import Foundation
@testable import RadioWorld
@testable import ReflectorFirmware
import Testing

/// Throughput of the Air: per-tone cost and whole procedures through planners, engines and
/// the Air in loopback. Prints the numbers (meaningful in release builds:
/// `swift test -c release --filter AirPerformance`); asserts only loose bounds, so a debug
/// build on a busy machine still passes.
struct AirPerformanceTests {
    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// One step's worth of tone traffic at a time: tune both sides, five initiator tones, five
    /// receptions at the reflector (TGn D, 4×4 antennas, noise, CFO).
    @Test func toneCost() {
        let air = Air(scenario: AirScenario(seed: 1, channelModel: .tgn(.d, lineOfSight: nil), snrDB: 20))
        var i = air.radio(.initiator), r = air.radio(.reflector)
        let steps = 20_000
        var sink: Float = 0
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for k in 0..<steps {
                let t = UInt64(k) * 1_000
                let ch = UInt8(2 + k % 72)
                i.tune(channel: ch, at: t)
                r.tune(channel: ch, at: t)
                for slot in 0..<5 {
                    let at = t + UInt64(20 * slot)
                    i.antennaSwitch.select(antenna: UInt8(slot % 4 + 1), at: at)
                    r.antennaSwitch.select(antenna: UInt8((slot + 1) % 4 + 1), at: at)
                    i.transmitTone(rotation: .one, at: at + 10, duration: 10)
                    sink += r.receiveTone(at: at + 10, duration: 10).iq.i
                }
            }
        }
        let perTone = Self.seconds(elapsed) / Double(steps * 5) * 1e9
        print("Air: \(String(format: "%.0f", perTone)) ns per tone (tune/5 + transmit + receive), TGn D 4x4, 20 dB")
        #expect(sink.isFinite)
        #expect(perTone < 50_000)
    }

    /// Whole procedures: both planners, both engines, the Air (free space, noise, CFO, ACI 0).
    @Test func proceduresPerSecond() {
        var config = CSConfiguration(mainMode: .mode2, inlinePCT: true, timing: CSTiming(tIP1: 30, tIP2: 20, tFCS: 100, tPM: 10, tSW: 10))
        config.role = .reflector
        var ic = config
        ic.role = .initiator
        let schedule = ProcedureSchedule(subeventLength: 12_000, subeventInterval: 15_000, maxProcedureLength: 1_000_000)
        let aci = AntennaConfiguration(index: 0)!
        let drbg = CSDRBG(iv: Block128(high: 0x0123_4567_89AB_CDEF, low: 0x1122_3344_5566_7788), instantiationNonce: 0x9FF4_77C1_8673_840D,
                          personalization: Block128(high: 0xC980_DEDF_9882_ED44, low: 0x64A6_7496_7868_F143))
        var ip = ProcedurePlanner(configuration: ic, schedule: schedule, antennaPaths: aci.antennaPaths, drbg: drbg)
        var rp = ProcedurePlanner(configuration: config, schedule: schedule, antennaPaths: aci.antennaPaths, drbg: drbg)
        let ie = CSStepEngine(configuration: ic, antennaConfiguration: aci)
        let re = CSStepEngine(configuration: config, antennaConfiguration: aci)
        let air = Air(scenario: AirScenario(seed: 2, snrDB: 25))
        var iRadio = air.radio(.initiator), rRadio = air.radio(.reflector)
        let procedures = 200
        var steps = 0
        var checksum = 0
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for n in 0..<procedures {
                ip.beginProcedure()
                rp.beginProcedure()
                let base = UInt64(n) * 2_000_000
                while let s = ip.nextStep() {
                    _ = rp.nextStep()
                    let at = base + UInt64(s.startMicroseconds)
                    ie.transmit(s, at: at, radio: &iRadio)
                    let r = re.run(s, at: at, radio: &rRadio)
                    let i = ie.receive(s, at: at, radio: &iRadio)
                    checksum &+= Int(i.channel) &+ Int(r.channel)
                    steps += 1
                }
            }
        }
        let rate = Double(procedures) / Self.seconds(elapsed)
        print("Air loopback: \(String(format: "%.0f", rate)) procedures/s, \(steps / procedures) steps each (planners + engines + Air)")
        #expect(checksum != 0 && steps > 70 * procedures)
        #expect(rate > 5)
    }

    /// Window averaging off: a 12 ppm offset over a 40 µs window keeps the tone's full amplitude;
    /// on, it shrinks by |sinc(Δf·T)| (≈ 0.14), the phase of the round trip intact either way.
    @Test(arguments: [false, true])
    func windowAveragingLoss(averaging: Bool) {
        var s = AirScenario.ideal(distance: 2)
        s.reflectorCrystalPPM = 12
        s.windowAveraging = averaging
        let air = Air(scenario: s)
        var i = air.radio(.initiator), r = air.radio(.reflector)
        i.tune(channel: 40, at: 1_000)
        r.tune(channel: 40, at: 1_000)
        i.transmitTone(rotation: .one, at: 1_010, duration: 40)
        let y = r.receiveTone(at: 1_010, duration: 40)
        let x = Double.pi * Air.frequency(channel: 40) * 12e-6 * 40e-6
        let expected = averaging ? 1000 * abs(sin(x) / x) : 1000
        #expect(abs(Double(y.iq.magnitude) - expected) < 0.5, "\(y.iq.magnitude) vs \(expected)")
    }
}
