import BLEHost
import Foundation
import HCITransport
import PhoneEmulation
import ReflectorFirmware
import SerialTransport
import VirtualBoard

/// Two boards through two ptys and two HCI stacks, as a user runs them: `reflector-emu serve
/// --pty A --pty B --timing` as its own process, this project's accessory host on A and its
/// initiator host on B (one thread, both lines). The initiator asks for procedures as often as
/// a 7.5 ms connection interval allows with 30 ms procedures. Prints the procedures per second
/// the initiator's host received whole, and how late serve wrote the subevent results after
/// their procedure was due (its --timing line).
func benchmarkTwoBoards(seconds: Double) {
    let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("reflector-emu")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-two-boards-\(getpid())")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let paths = [dir.appendingPathComponent("A").path, dir.appendingPathComponent("B").path]
    let process = Process()
    process.executableURL = tool
    process.arguments = ["serve", "--pty", paths[0], "--pty", paths[1], "--channel", "free", "--timing"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    do { try process.run() } catch { return print("two-boards: cannot start \(tool.path): \(error)") }
    var text = ""
    while !text.contains("ready") {
        let d = output.fileHandleForReading.availableData
        if d.isEmpty { return print("two-boards: serve did not start") }
        text += String(decoding: d, as: UTF8.self)
    }
    let key = [UInt8](0..<16)
    var procedures = 0
    var measured: Double = 0
    do {
        let ports = try paths.map { try SerialPort(path: $0) }
        defer { for p in ports { p.close() } }
        let a = HCIChannel(link: ports[0], side: .host), b = HCIChannel(link: ports[1], side: .host)
        var accessory = EmulatedPeerHost.accessory(longTermKey: key, address: 0xC0FF_EE00_00A1, phoneAddress: 0xC0FF_EE00_00B0)
        let loopback = LoopbackSetup()
        var parameters = loopback.parameters
        parameters.maxProcedureLength = 48  // 30 ms
        parameters.minProcedureInterval = 1
        var initiator = InitiatorHost(setup: .init(connectionHandle: 0, configuration: loopback.configuration, parameters: parameters,
                                                   connect: .init(scanningFor: AdvertiserFilter(name: "reflector-emu"), longTermKey: key)))
        let clock = ContinuousClock()
        let begin = clock.now
        var firstProcedure: ContinuousClock.Instant?
        func micros() -> UInt64 { UInt64(durationSeconds(clock.now - begin) * 1e6) }
        while durationSeconds(clock.now - begin) < seconds + 10 {
            if let first = firstProcedure, durationSeconds(clock.now - first) >= seconds { break }
            if let c = accessory.nextCommand(now: micros()) { try a.send(c) }
            for p in accessory.nextACL() { try a.send(p) }
            if let c = initiator.nextCommand() { try b.send(HCIPacket(indicator: .command, bytes: c)) }
            HCIChannel.waitForAny([a, b], timeout: 5)
            while let e = try? a.receive(timeout: 0) {
                if e.indicator == .aclData { accessory.handleACL(e, now: micros()) } else { accessory.handleEvent(e, now: micros()) }
            }
            while let e = try? b.receive(timeout: 0) {
                for out in initiator.handleEvent(e.bytes) {
                    switch out {
                    case .procedure:
                        if firstProcedure == nil { firstProcedure = clock.now } else { procedures += 1 }
                    case .failed(let error): return print("two-boards: the initiator failed: \(error)")
                    default: break
                    }
                }
            }
        }
        measured = firstProcedure.map { durationSeconds(clock.now - $0) } ?? 0
    } catch {
        print("two-boards: \(error)")
    }
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let timing = text.split(separator: "\n").first { $0.contains("subevent results written") }.map(String.init) ?? "serve gave no timing line"
    print("two-boards: \(String(format: "%.1f", Double(procedures) / max(measured, 1e-9))) procedures/s received whole by the initiator's host "
        + "over \(String(format: "%.1f", measured)) s; \(timing)")
}
