import BLEHost
import EmulatorMath
import Foundation
import HCITransport
import PhoneEmulation
import RadioWorld
import RangingEstimation
import ReflectorFirmware
import SerialTransport

/// Benchmarks of the per-step path and of the tool's output, run in release mode:
/// `swift run -c release bench [plans|plan-json|...]`.
/// Prints rates measured on this machine's clock; never used as a test.

/// Complete procedure plans per second: 72 channels, mode 2 with N_AP = 4 (ACI 6), three mode-0
/// steps per subevent, the DRBG (with backtracking resistance) included.
func benchmarkPlans(seconds: Double, fixedCount: Int?) {
    let config = CSConfiguration(mainMode: .mode2, mode0Steps: 3, channelMap: .allowed)
    let schedule = ProcedureSchedule(subeventLength: 10_000, maxProcedureLength: 10_000_000)
    let drbg = CSDRBG(iv: Block128(high: 0xE10B_C28A_0BFD_DFE9, low: 0x3E7F_5186_E0CA_0B3B),
                      instantiationNonce: 0x9FF4_77C1_8673_840D,
                      personalization: Block128(high: 0xC980_DEDF_9882_ED44, low: 0x64A6_7496_7868_F143))
    var planner = ProcedurePlanner(configuration: config, schedule: schedule, antennaPaths: 4, drbg: drbg)
    var plans = 0
    var steps = 0
    var checksum: UInt32 = 0
    let clock = ContinuousClock()
    let start = clock.now
    let budget = Duration.milliseconds(Int64(seconds * 1000))
    let blocksBefore = planner.bits.drbg.blocksGenerated
    while fixedCount.map({ plans < $0 }) ?? (clock.now - start < budget) {
        for _ in 0..<min(100, fixedCount ?? 100) {
            planner.beginProcedure()
            while let s = planner.nextStep() {
                checksum &+= UInt32(s.channel) &+ UInt32(s.antennaPermutationIndex)
                steps += 1
            }
            plans += 1
        }
    }
    let elapsed = clock.now - start
    let secs = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let blocks = planner.bits.drbg.blocksGenerated - blocksBefore
    print("plans: \(Int(Double(plans) / secs)) procedure plans/s on one core (\(steps / plans) steps each: 72 channels, mode 2, N_AP 4, 3 mode-0 steps per subevent)")
    print("plans: \(Double(Int(Double(blocks) / Double(steps) * 100)) / 100) AES blocks per step for random bits (backtracking and key expansion not counted), checksum \(checksum)")
}

/// Full loopback procedures per second: both hosts and controllers, LL and HCI bytes, the air
/// (20 dB, free space), and the estimator, for N_AP = 1 and 4.
func benchmarkLoopback(seconds: Double) {
    let estimators: [(String, any DistanceEstimator)] = [
        ("phase slope (Kay)", PhaseSlopeEstimator(variant: .kay)), ("IFFT 512", IFFTEstimator()), ("ESPRIT", ESPRITEstimator()),
        ("multipath fit (ML)", MultipathFitEstimator()),
    ]
    for aci: UInt8 in [0, 6] {
        for (name, estimator) in estimators {
            var link = LoopbackSetup(scenario: AirScenario(seed: 3, geometry: AirGeometry(distance: 5), snrDB: 20), antennaConfigurationIndex: aci).makeLink()
            _ = link.settle()
            var procedures = 0
            var estimates = 0
            let secs = repeatFor(seconds: seconds) {
                for output in link.runProcedure() ?? [] {
                    if case let .procedure(p, reflector) = output {
                        let tones = ToneSetBuilder.tones(initiator: p.steps, reflector: reflector, antennaPaths: p.antennaPaths)
                        if estimator.estimate(tones) != nil { estimates += 1 }
                        procedures += 1
                    }
                }
            }
            let n = AntennaConfiguration(index: aci)!.antennaPaths
            print("loopback: N_AP \(n), \(name): \(Int(Double(procedures) / secs)) procedures/s (\(estimates) of \(procedures) estimated)")
        }
        // What a session adds on a still pair: the still scene's pool and the fit of its mean
        // tones, a second fit per procedure (`DistanceSmoother`).
        var link = LoopbackSetup(scenario: AirScenario(seed: 3, geometry: AirGeometry(distance: 5), snrDB: 20), antennaConfigurationIndex: aci).makeLink()
        _ = link.settle()
        let estimator = MultipathFitEstimator()
        var smoother = DistanceSmoother()
        var procedures = 0, pooled = 0
        let secs = repeatFor(seconds: seconds) {
            for output in link.runProcedure() ?? [] {
                if case let .procedure(p, reflector) = output {
                    let tones = ToneSetBuilder.tones(initiator: p.steps, reflector: reflector, antennaPaths: p.antennaPaths)
                    let update = smoother.update(tones: tones, estimate: estimator.estimate(tones), at: Double(procedures) * 0.1, estimator: estimator)
                    if update.still != nil { pooled += 1 }
                    procedures += 1
                }
            }
        }
        let n = AntennaConfiguration(index: aci)!.antennaPaths
        print("loopback: N_AP \(n), multipath fit (ML) and the still-scene pool: \(Int(Double(procedures) / secs)) procedures/s (\(pooled) of \(procedures) pooled)")
    }
}

/// Accuracy of the full loopback against truth and the Cramér-Rao bound, per estimator: free
/// space at 20 dB over 0.5 to 40 m (RMSE and its ratio to the two-sided CRLB), and the 90th percentile of absolute
/// errors in light multipath (a reflection 1.5 m longer at 0.3) and with a reflection 3 m longer
/// at 0.7 (new reflection phase every procedure).
func benchmarkAccuracy(proceduresPerPoint: Int, only: String?) {
    let estimators: [(String, any DistanceEstimator)] = [
        ("kay", PhaseSlopeEstimator(variant: .kay)), ("ls", PhaseSlopeEstimator(variant: .leastSquares)),
        ("ifft", IFFTEstimator()), ("esprit", ESPRITEstimator()), ("ml", MultipathFitEstimator()),
    ].filter { only == nil || $0.0 == only }
    let crlb = CramerRaoBound.distanceStandardDeviation(frequencies: CramerRaoBound.allowedChannelFrequencies, snrDB: 20, noise: .twoSided)
    func errors(_ model: AirChannelModel, distances: [Double], estimator: any DistanceEstimator) -> [Double] {
        var out: [Double] = []
        for (k, d) in distances.enumerated() {
            var scenario = AirScenario(seed: UInt64(1000 + k), geometry: AirGeometry(distance: d), channelModel: model, snrDB: 20)
            scenario.channelCoherenceTime = 150_000
            var link = LoopbackSetup(scenario: scenario).makeLink()
            _ = link.settle()
            var n = 0
            while n < proceduresPerPoint, let outputs = link.runProcedure() {
                for case let .procedure(p, reflector) in outputs {
                    let tones = ToneSetBuilder.tones(initiator: p.steps, reflector: reflector, antennaPaths: p.antennaPaths)
                    out.append((estimator.estimate(tones)?.distance ?? .infinity) - d)
                    n += 1
                }
            }
        }
        return out
    }
    func p90(_ e: [Double]) -> Double { Quantile.of(e.map(abs), 0.9) ?? .nan }
    print("accuracy: 20 dB per-tone SNR, inline PCT, N_AP 1, \(proceduresPerPoint) procedures per point; two-sided CRLB \(String(format: "%.4f", crlb)) m")
    print("accuracy: estimator | free space 0.5-40 m: RMSE (x CRLB) | light multipath 90th percentile (interpolated) of |error| | reflection 3 m longer, the same")
    for (name, e) in estimators {
        let free = errors(.freeSpace, distances: [0.5, 1.5, 3, 7, 12, 20, 30, 40], estimator: e)
        let rmse = (free.map { $0 * $0 }.reduce(0, +) / Double(free.count)).squareRoot()
        let light = errors(.twoRay(excessPath: 1.5, amplitude: 0.3, phase: nil), distances: [3, 5, 8], estimator: e)
        let twoRay = errors(.twoRay(excessPath: 3, amplitude: 0.7, phase: nil), distances: [3, 5, 8], estimator: e)
        print("accuracy: \(name) | \(String(format: "%.4f m (%.2fx)", rmse, rmse / crlb)) | \(String(format: "%.3f m", p90(light))) | \(String(format: "%.3f m", p90(twoRay)))")
    }
}

/// H4 framing throughput: a stream of mixed packets (commands, 251-octet ACL, events) fed to
/// the framer in 4 KiB reads, as a serial read loop does.
func benchmarkFramer(seconds: Double) {
    var stream: [UInt8] = []
    var packets = 0
    for k in 0..<2000 {
        let p: HCIPacket
        switch k % 3 {
        case 0: p = HCIPacket(indicator: .command, bytes: [0x03, 0x0C, 0x00])
        case 1: p = HCIPacket(indicator: .aclData, bytes: [0x40, 0x20, 251, 0] + [UInt8](repeating: UInt8(k & 0xFF), count: 251))
        default: p = HCIPacket(indicator: .event, bytes: [0x3E, 0xF7] + [UInt8](repeating: 0x31, count: 247))
        }
        stream += p.h4Bytes
        packets += 1
    }
    let clock = ContinuousClock()
    let start = clock.now
    var bytes = 0
    var out = 0
    while clock.now - start < .milliseconds(Int64(seconds * 1000)) {
        var framer = H4Framer()
        var i = 0
        while i < stream.count {
            let end = min(i + 4096, stream.count)
            for case .packet in framer.feed(stream[i..<end]) { out += 1 }
            i = end
        }
        bytes += stream.count
    }
    let secs = durationSeconds(clock.now - start)
    print("framer: \(String(format: "%.1f", Double(bytes) / secs / 1e6)) MB/s, \(Int(Double(out) / secs)) packets/s (1 Mbaud carries 0.1 MB/s)")
}

/// serve over a pty: round-trip latency of a command and its Command Complete, and host-to-board
/// ACL throughput (251-octet packets, each acknowledged by Number Of Completed Packets), with
/// `reflector-emu serve` running as its own process as a user runs it.
func benchmarkServe(seconds: Double) {
    let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("reflector-emu")
    let link = FileManager.default.temporaryDirectory.appendingPathComponent("bench-board-\(getpid())").path
    let process = Process()
    process.executableURL = tool
    process.arguments = ["serve", "--pty", link, "--role", "initiator"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    do { try process.run() } catch { return print("serve: cannot start \(tool.path): \(error)") }
    defer {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
    var ready = ""
    while !ready.contains("ready") {
        let d = output.fileHandleForReading.availableData
        if d.isEmpty { return print("serve: the board did not start") }
        ready += String(decoding: d, as: UTF8.self)
    }
    do {
        let port = try SerialPort(path: link)
        defer { port.close() }
        let channel = HCIChannel(link: port, side: .host)
        // Latency: LE Read Local Supported Features and its Command Complete.
        var latencies: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<2000 {
            let t0 = clock.now
            try channel.send(HCIPacket(indicator: .command, bytes: [0x03, 0x20, 0x00]))
            _ = try channel.receive(timeout: 1000)
            latencies.append(durationSeconds(clock.now - t0) * 1e6)
        }
        latencies.sort()
        print("serve: command round trip over a pty: median \(Int(latencies[latencies.count / 2])) us, p99 \(Int(latencies[latencies.count * 99 / 100])) us")
        // Throughput: unmask the LE Meta event, connect to the peer, then stream ACL.
        try channel.send(HCIPacket(indicator: .command, bytes: [0x01, 0x0C, 8, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0x00, 0x20]))
        _ = try channel.receive(timeout: 1000)
        let connect: [UInt8] = [0x0D, 0x20, 25, 0x60, 0, 0x60, 0, 0, 0, 0xB1, 0x00, 0x00, 0xEE, 0xFF, 0xC0, 0, 6, 0, 6, 0, 0, 0, 0x90, 1, 0, 0, 0, 0]
        try channel.send(HCIPacket(indicator: .command, bytes: connect))
        var connected = false
        while !connected { connected = (try channel.receive(timeout: 2000)).bytes.first == 0x3E }
        let acl = HCIPacket(indicator: .aclData, bytes: [0x40, 0x20, 251, 0] + [UInt8](repeating: 0xA5, count: 251))
        let start = clock.now
        var sent = 0
        var acked = 0
        while durationSeconds(clock.now - start) < seconds {
            while sent - acked < 4 { try channel.send(acl); sent += 1 }
            let e = try channel.receive(timeout: 1000)
            if e.bytes.first == 0x13, e.bytes.count >= 7 { acked += Int(e.bytes[5]) | Int(e.bytes[6]) << 8 }
        }
        let secs = durationSeconds(clock.now - start)
        print("serve: host-to-board ACL over a pty: \(String(format: "%.2f", Double(acked * acl.h4Bytes.count) / secs / 1e6)) MB/s (\(String(format: "%.0f", Double(acked * acl.h4Bytes.count) / secs / 1e5))x the 1 Mbaud line rate)")
    } catch {
        print("serve: \(error)")
    }
}

func durationSeconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

/// Runs `body` again and again until `seconds` have passed; the seconds that took (the last
/// run whole).
func repeatFor(seconds: Double, _ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    let budget = Duration.milliseconds(Int64(seconds * 1000))
    while clock.now - start < budget { body() }
    return durationSeconds(clock.now - start)
}

let args = CommandLine.arguments.dropFirst()
let which = args.first ?? "all"
var seconds = 2.0
if let i = args.firstIndex(of: "--seconds"), i + 1 < args.endIndex, let s = Double(args[i + 1]) { seconds = s }
/// `--plans N` plans exactly N procedures (for counting allocations under valgrind).
var fixedCount: Int?
if let i = args.firstIndex(of: "--plans"), i + 1 < args.endIndex, let n = Int(args[i + 1]) { fixedCount = n }
/// `--only NAME` runs one estimator (estimators, accuracy).
var only: String?
if let i = args.firstIndex(of: "--only"), i + 1 < args.endIndex { only = args[i + 1] }
switch which {
case "plans":
    benchmarkPlans(seconds: seconds, fixedCount: fixedCount)
case "loopback":
    benchmarkLoopback(seconds: seconds)
case "estimators":
    benchmarkEstimators(seconds: seconds, only: only)
case "framer":
    benchmarkFramer(seconds: seconds)
case "serve":
    benchmarkServe(seconds: seconds)
case "accuracy":
    benchmarkAccuracy(proceduresPerPoint: fixedCount ?? 100, only: only)
case "tdoa":
    benchmarkTDoA(seconds: seconds)
    benchmarkTDoAMap(seconds: seconds)
case "plan-json":
    benchmarkPlanJSON(seconds: seconds)
case "air":
    benchmarkAir(seconds: seconds)
case "two-boards":
    benchmarkTwoBoards(seconds: seconds)
case "view":
    benchmarkView(seconds: seconds)
case "sweep":
    benchmarkSweep()
case "all":
    benchmarkPlans(seconds: seconds, fixedCount: fixedCount)
    benchmarkLoopback(seconds: seconds)
    benchmarkAccuracy(proceduresPerPoint: 100, only: nil)
    benchmarkTDoA(seconds: seconds)
    benchmarkTDoAMap(seconds: seconds)
    benchmarkAir(seconds: seconds)
default:
    print("usage: bench [plans|plan-json|loopback|estimators|accuracy|tdoa|air|framer|serve|two-boards|view|sweep|all] [--seconds S] [--plans N (procedures per point for accuracy)] [--only ESTIMATOR (estimators, accuracy)]")
}
