import Foundation

/// Runs the built `reflector-emu` executable as a user would, with a deadline: a test that
/// starts a process also stops it.
enum ToolProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The products directory holding both the test bundle and the executables.
    static var executable: URL {
        var dir = Bundle.main.bundleURL
        while dir.pathComponents.count > 1, !FileManager.default.fileExists(atPath: dir.appendingPathComponent("reflector-emu").path) {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent("reflector-emu")
    }

    static func run(_ arguments: [String], timeout: TimeInterval = 60) throws -> Result {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        try p.run()
        // Drain both pipes while the process runs, so a large output cannot block it.
        let outData = Collected()
        let errData = Collected()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outData.data = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData.data = err.fileHandleForReading.readDataToEndOfFile() }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            p.terminate()
            p.waitUntilExit()
        }
        group.wait()
        return Result(status: p.terminationStatus, stdout: String(decoding: outData.data, as: UTF8.self), stderr: String(decoding: errData.data, as: UTF8.self))
    }
}

/// Bytes one reader thread collects; read only after the group it ran in has finished.
private final class Collected: @unchecked Sendable {
    var data = Data()
}
