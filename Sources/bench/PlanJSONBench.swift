import Foundation
import ReflectorTools

/// The CLI's `plan --json` writing: procedure plans per second, planned and written as JSON by
/// the same code `reflector-emu plan --json` runs, for the shipped example configuration
/// (Examples/plan-config.json, about 13 KB of JSON per plan), into /dev/null and into memory.
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
    guard let null = FileHandle(forWritingAtPath: "/dev/null") else { return print("plan-json: cannot open /dev/null") }
    let batch = 1000
    let clock = ContinuousClock()
    let start = clock.now
    var plans = 0
    var bytes = 0
    while durationSeconds(clock.now - start) < seconds {
        let text = PlanReport(config: config, security: security, count: batch).json + "\n"
        let data = Data(text.utf8)
        null.write(data)
        bytes += data.count
        plans += batch
    }
    let secs = durationSeconds(clock.now - start)
    print("plan-json: \(Int(Double(plans) / secs)) procedure plans/s written as JSON to /dev/null (\(bytes / plans) bytes each)")
}
