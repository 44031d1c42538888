import Testing
import FirmwareHarness
import ReflectorFirmware

/// The test image's session on Linux: a vector runs to Done with a frame per step, the same
/// octets every time; what is refused is answered with an Error frame naming the field.
struct HarnessSessionTests {
    let configuration = CSConfiguration(mainMode: .mode2, mode0Steps: 2, role: .reflector, inlinePCT: true,
                                        timing: CSTiming(tIP1: 80, tIP2: 80, tFCS: 100, tPM: 40, tSW: 10))
    let schedule = ProcedureSchedule(subeventLength: 10_000, subeventInterval: 12_500, maxProcedureLength: 50_000)

    func frame(_ type: FrameType, _ payload: [UInt8]) -> [UInt8] {
        var sink = ByteSink()
        FrameFormat.write(type: type.rawValue, payload: payload, to: &sink)
        return sink.bytes
    }

    var vector: [UInt8] {
        let security = SecurityMaterial(iv: Block128(high: 1, low: 2), instantiationNonce: 3, personalization: Block128(high: 4, low: 5))
        let pool = ReceptionPool(tones: [ToneReception(iq: IQSample(i: 300.5, q: -1200.25), snrDB: 25),
                                         ToneReception(iq: IQSample(i: -2500, q: 10), snrDB: 5)],
                                 syncs: [SyncReception(detected: true, rssi: -60, arrivalOffsetHalfNanoseconds: 12)])
        return frame(.configuration, TestVector.encodeConfiguration(configuration, aci: AntennaConfiguration(index: 5)!, schedule: schedule, procedures: 2))
            + frame(.security, security.payload) + frame(.receptions, pool.payload) + frame(.run, [])
    }

    func run(_ bytes: [UInt8]) -> (done: Bool, frames: [(UInt8, [UInt8])]) {
        var session = HarnessSession()
        var sink = ByteSink()
        var meter = NoMeter()
        for b in bytes where !session.isDone { session.receive(b, sink: &sink, meter: &meter) }
        var decoder = FrameDecoder()
        var frames: [(UInt8, [UInt8])] = []
        for b in sink.bytes { if case .frame(let t, let p) = decoder.push(b) { frames.append((t, p)) } }
        return (session.isDone, frames)
    }

    @Test func aVectorRunsToDoneTheSameEveryTime() {
        let first = run(vector)
        #expect(first.done)
        #expect(first.frames.last?.0 == FrameType.done.rawValue)
        #expect(first.frames.filter { $0.0 == FrameType.procedureEnd.rawValue }.count == 2)
        let steps = first.frames.filter { $0.0 == FrameType.step.rawValue }
        #expect(steps.count > 20)
        let second = run(vector)
        #expect(second.frames.map(\.1) == first.frames.map(\.1))
    }

    @Test func configurationRoundTrips() throws {
        let payload = TestVector.encodeConfiguration(configuration, aci: AntennaConfiguration(index: 5)!, schedule: schedule, procedures: 2)
        #expect(payload.count == TestVector.configurationLength)
        let (c, aci, s, procedures) = try TestVector.decodeConfiguration(payload)
        #expect(c == configuration && aci.index == 5 && s == schedule && procedures == 2)
    }

    @Test func refusalsNameTheField() {
        var payload = TestVector.encodeConfiguration(configuration, aci: AntennaConfiguration(index: 5)!, schedule: schedule, procedures: 2)
        payload[5] = 4  // Mode_0_Steps out of range
        let bytes = frame(.run, []) + frame(.configuration, payload) + frame(.receptions, [0]) + [0x42, 0x42] + vector
        let result = run(bytes)
        let errors = result.frames.filter { $0.0 == FrameType.error.rawValue }.map(\.1)
        #expect(errors == [
            [HarnessError.incompleteVector.rawValue, FrameType.run.rawValue, 0, 0],
            [HarnessError.badPayload.rawValue, FrameType.configuration.rawValue, 5, 0],
            [HarnessError.badPayload.rawValue, FrameType.receptions.rawValue, 0, 0],
            [HarnessError.garbage.rawValue, 0, 2, 0],
        ])
        #expect(result.done)
    }
}
