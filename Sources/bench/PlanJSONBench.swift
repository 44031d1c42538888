import Foundation
import ReflectorTools

/// The CLI's `plan --json` writing: procedure plans per second, planned and written as JSON by
/// the same code `reflector-emu plan --json` runs, for the shipped example configuration
/// (Examples/plan-config.json, about 13 KB of JSON per plan), into /dev/null and into a sink
/// that only counts the bytes.
func benchmarkPlanJSON(seconds: Double) {
    let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")
    let config: PlanConfigFile, security: SecurityFile
    do {
        config = try PlanConfigFile(json: JSONValue.parse(Data(contentsOf: examples.appendingPathComponent("plan-config.json"))))
        security = try SecurityFile(json: JSONValue.parse(Data(contentsOf: examples.appendingPathComponent("security-sample.json"))))
    } catch {
        print("plan-json: cannot read the example files: \(error)")
        return
    }
    let batch = 1000
    let report = PlanReport(config: config, security: security, count: batch)
    func measure(_ name: String, _ output: () -> (CommandOutput, () -> Int)) {
        let clock = ContinuousClock()
        let start = clock.now
        var plans = 0
        var bytes = 0
        while durationSeconds(clock.now - start) < seconds {
            let (out, written) = output()
            report.writeJSON(to: out)
            out.flush()
            bytes += written()
            plans += batch
        }
        let secs = durationSeconds(clock.now - start)
        print("plan-json: \(Int(Double(plans) / secs)) procedure plans/s written as JSON \(name) (\(bytes / max(plans, 1)) bytes each)")
    }
    // The planner alone on the same configuration, for the cost of writing by difference.
    do {
        let clock = ContinuousClock()
        let start = clock.now
        var planner = report.makePlanner()
        var plans = 0, checksum = 0
        while durationSeconds(clock.now - start) < seconds {
            for _ in 0..<batch {
                planner.beginProcedure()
                while let s = planner.nextStep() { checksum &+= Int(s.channel) }
                plans += 1
            }
        }
        print("plan-json: \(Int(Double(plans) / durationSeconds(clock.now - start))) procedure plans/s planned without writing (checksum \(checksum))")
    }
    let null = open("/dev/null", O_WRONLY)
    guard null >= 0 else { return print("plan-json: cannot open /dev/null") }
    defer { close(null) }
    final class Counting: ByteSink {
        let inner: any ByteSink
        var count = 0
        init(_ inner: any ByteSink) { self.inner = inner }
        func write(_ bytes: UnsafeRawBufferPointer) {
            count += bytes.count
            inner.write(bytes)
        }
    }
    final class Discard: ByteSink {
        var count = 0
        func write(_ bytes: UnsafeRawBufferPointer) { count += bytes.count }
    }
    measure("to /dev/null") {
        let sink = Counting(FileDescriptorSink(null))
        return (CommandOutput(sink: sink), { sink.count })
    }
    measure("into memory (bytes discarded)") {
        let sink = Discard()
        return (CommandOutput(sink: sink), { sink.count })
    }
}
