import Foundation
import ReflectorTools
import ToolFiles
import ToolJSON

/// The CLI's `plan --json` writing: procedure plans per second, planned and written as JSON by
/// the same code `reflector-emu plan --json` runs, for the shipped example configuration
/// (Examples/plan-config.json, about 13 KB of JSON per plan), into /dev/null and into a sink
/// that only counts the bytes; and the planner alone, so the writing's share shows by
/// difference. Each rate is given per second of wall-clock time and per second of this
/// thread's CPU time (the figure that holds on a machine shared with other work).
func benchmarkPlanJSON(seconds: Double) {
    let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")
    let config: PlanConfigFile, security: SecurityFile
    do {
        config = try PlanConfigFile.parse(Data(contentsOf: examples.appendingPathComponent("plan-config.json")))
        security = try SecurityFile.parse(Data(contentsOf: examples.appendingPathComponent("security-sample.json")))
    } catch {
        print("plan-json: cannot read the example files: \(error)")
        return
    }
    let batch = 1000
    let report = PlanReport(config: config, security: security, count: batch)

    /// Runs `body` (which does `batch` plans and returns the bytes written) for `seconds`.
    func measure(_ what: String, _ body: () -> Int) {
        let clock = ContinuousClock()
        let start = clock.now, cpuStart = threadCPUSeconds()
        var plans = 0, bytes = 0
        while durationSeconds(clock.now - start) < seconds {
            bytes += body()
            plans += batch
        }
        let wall = durationSeconds(clock.now - start), cpu = threadCPUSeconds() - cpuStart
        let size = bytes > 0 ? " (\(bytes / plans) bytes each)" : ""
        print("plan-json: \(Int(Double(plans) / wall)) procedure plans/s \(what), \(Int(Double(plans) / cpu)) per CPU second\(size)")
    }

    var planner = report.makePlanner()
    var checksum = 0
    measure("planned without writing") {
        for _ in 0..<batch {
            planner.beginProcedure()
            while let s = planner.nextStep() { checksum &+= Int(s.channel) }
        }
        return 0
    }
    let null = open("/dev/null", O_WRONLY)
    guard null >= 0 else { return print("plan-json: cannot open /dev/null") }
    defer { close(null) }
    final class Counting: ByteSink {
        let inner: (any ByteSink)?
        var count = 0
        init(_ inner: (any ByteSink)?) { self.inner = inner }
        func write(_ bytes: UnsafeRawBufferPointer) {
            count += bytes.count
            inner?.write(bytes)
        }
    }
    for (what, target) in [("written as JSON to /dev/null", FileDescriptorSink(null) as (any ByteSink)?), ("written as JSON into memory (bytes discarded)", nil)] {
        measure(what) {
            let sink = Counting(target)
            let out = CommandOutput(sink: sink)
            report.writeJSON(to: out)
            out.flush()
            return sink.count
        }
    }
    if checksum == 42 { print("") }  // keeps the planner's work
}

/// This thread's CPU time, seconds.
func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
