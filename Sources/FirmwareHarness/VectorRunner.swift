#if !FIRMWARE_IMAGE
import ReflectorFirmware
#endif

/// Runs a test vector as a reflector's controller runs its procedures on a board: the DRBG
/// instantiated from the security material (h9), the `ProcedurePlanner` handing out each step,
/// the `CSStepEngine` running it on the radio, the step data packed as LE CS Subevent Result
/// carries it. Sends a Step frame per step, a Procedure End frame per procedure, then Done, and
/// measures each piece of that work with `meter` (the frames' writing is not measured).
public enum VectorRunner {
    /// Start of procedure `p` on the controller clock (µs): the radio is told, nothing depends on it.
    static let procedureSpacing: UInt64 = 100_000

    public static func run<Sink: FrameSink, Meter: WorkMeter>(
        _ vector: TestVector, sink: inout Sink, meter: inout Meter, stats: inout WorkStats
    ) {
        let s = vector.security
        let drbg = CSDRBG<AES128>(iv: s.iv, instantiationNonce: s.instantiationNonce, personalization: s.personalization)
        var planner = ProcedurePlanner(configuration: vector.configuration, schedule: vector.schedule,
                                       antennaPaths: vector.antennaConfiguration.antennaPaths, drbg: drbg)
        let engine = CSStepEngine(configuration: vector.configuration, antennaConfiguration: vector.antennaConfiguration)
        var radio = VectorRadio(pool: vector.receptions)
        var report: [UInt8] = []
        report.reserveCapacity(64)
        var payload: [UInt8] = []
        payload.reserveCapacity(160)
        var totalSteps: UInt32 = 0

        for p in 0..<vector.procedures {
            var t0 = meter.now()
            planner.beginProcedure()
            stats.procedureBegin.add(meter.now() &- t0)
            let start = UInt64(p) * procedureSpacing
            var steps: UInt16 = 0
            var sawMain = false
            while true {
                t0 = meter.now()
                guard let step = planner.nextStep() else { break }
                let planned = meter.now() &- t0
                let mode = Int(step.mode.rawValue)
                if steps == 0 {
                    stats.firstStepPlan.add(planned)
                } else if !sawMain && step.kind != .mode0 {
                    stats.firstMainStepPlan.add(planned)
                } else {
                    stats.plan[mode].add(planned)
                }
                if step.kind != .mode0 { sawMain = true }

                radio.startStep()
                t0 = meter.now()
                let result = engine.run(step, at: start + UInt64(step.startMicroseconds), radio: &radio)
                stats.run[mode].add(meter.now() &- t0)

                t0 = meter.now()
                report.removeAll(keepingCapacity: true)
                ByteWriter.append(to: &report) { result.encode(into: &$0) }
                stats.pack[mode].add(meter.now() &- t0)

                StepRecord.encode(step, radio: radio, report: report, into: &payload)
                FrameFormat.write(type: FrameType.step.rawValue, payload: payload, to: &sink)
                steps &+= 1
            }
            totalSteps &+= UInt32(steps)
            let blocks = UInt32(truncatingIfNeeded: planner.bits.drbg.blocksGenerated)
            let counter = planner.procedureCounter
            FrameFormat.write(type: FrameType.procedureEnd.rawValue, payload: [
                UInt8(truncatingIfNeeded: counter), UInt8(truncatingIfNeeded: counter >> 8),
                UInt8(truncatingIfNeeded: steps), UInt8(truncatingIfNeeded: steps >> 8),
                UInt8(truncatingIfNeeded: blocks), UInt8(truncatingIfNeeded: blocks >> 8),
                UInt8(truncatingIfNeeded: blocks >> 16), UInt8(truncatingIfNeeded: blocks >> 24),
            ], to: &sink)
        }
        FrameFormat.write(type: FrameType.done.rawValue, payload: [
            UInt8(truncatingIfNeeded: vector.procedures),
            UInt8(truncatingIfNeeded: totalSteps), UInt8(truncatingIfNeeded: totalSteps >> 8),
            UInt8(truncatingIfNeeded: totalSteps >> 16), UInt8(truncatingIfNeeded: totalSteps >> 24),
        ], to: &sink)
    }
}
