import Foundation
import RadioWorld
import ReflectorFirmware

/// The Air's cost: one step's worth of tone traffic at a time (tune both sides, five initiator
/// tones, five receptions at the reflector; TGn D, 4×4 antennas, noise, CFO), and whole
/// procedures through both planners, both engines and the Air (free space, noise, CFO, ACI 0,
/// mode 2 with inline PCT). Moved here from the timed unit test AirPerformanceTests.
func benchmarkAir(seconds: Double) {
    let air = Air(scenario: AirScenario(seed: 1, channelModel: .tgn(.d, lineOfSight: nil), snrDB: 20))
    var i = air.radio(.initiator), r = air.radio(.reflector)
    var sink: Float = 0
    var tones = 0
    let clock = ContinuousClock()
    var start = clock.now
    var k = 0
    while durationSeconds(clock.now - start) < seconds {
        for _ in 0..<1000 {
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
                tones += 1
            }
            k += 1
        }
    }
    let perTone = durationSeconds(clock.now - start) / Double(tones) * 1e9
    print("air: \(String(format: "%.0f", perTone)) ns per tone (tune/5 + transmit + receive), TGn D 4x4, 20 dB (checksum \(sink.isFinite ? "finite" : "NOT FINITE"))")

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
    let loopAir = Air(scenario: AirScenario(seed: 2, snrDB: 25))
    var iRadio = loopAir.radio(.initiator), rRadio = loopAir.radio(.reflector)
    var procedures = 0
    var steps = 0
    var checksum = 0
    start = clock.now
    while durationSeconds(clock.now - start) < seconds {
        ip.beginProcedure()
        rp.beginProcedure()
        let base = UInt64(procedures) * 2_000_000
        while let s = ip.nextStep() {
            _ = rp.nextStep()
            let at = base + UInt64(s.startMicroseconds)
            ie.transmit(s, at: at, radio: &iRadio)
            let r = re.run(s, at: at, radio: &rRadio)
            let i = ie.receive(s, at: at, radio: &iRadio)
            checksum &+= Int(i.channel) &+ Int(r.channel)
            steps += 1
        }
        procedures += 1
    }
    let rate = Double(procedures) / durationSeconds(clock.now - start)
    print("air: \(String(format: "%.0f", rate)) procedures/s, \(steps / max(procedures, 1)) steps each (planners + engines + Air, checksum \(checksum))")
}
