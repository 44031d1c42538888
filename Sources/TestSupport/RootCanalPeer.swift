import Foundation

/// Google's RootCanal (Android's virtual controller, PyPI `rootcanal==1.13.0`) as a foreign
/// controller for a test: `Tests/Peers/rootcanal_peer.py` starts its binary through the Debian 13
/// loader (scripts/ensure-deps installs all three) on a free port base of its own, bridges one pty
/// per controller asked for to the HCI port (socat), and stops all of it when this value stops
/// (end of its stdin, then SIGTERM; at deinit too).
///
/// ```swift
/// let rootCanal = try RootCanalPeer(ptys: ["A", "B"])   // two controllers on one LE air
/// defer { rootCanal.stop() }
/// let r = try ToolProcess.run(["check", "--pty", rootCanal.pty("A")], timeout: 30)
/// ```
///
/// Each pty is a controller of its own, public address DA:4C:10:DE:00:0n, n counting from 0 in the
/// order of `ptys`; `hciPort` takes further TCP clients (Bumble's `tcp-client:127.0.0.1:PORT`),
/// each one a controller too. A bridge whose host closed the pty is started again (a fresh
/// controller, the next address).
public final class RootCanalPeer: @unchecked Sendable {
    /// Test, HCI, link and link_ble ports: `portBase` ... `portBase + 3`.
    public let portBase: Int
    public var hciPort: Int { portBase + 1 }
    /// The pty links, by the names given to `init`.
    public let ptys: [String: String]
    /// RootCanal's and socat's output (`log()` reads it).
    public let logPath: String
    private let process: BackgroundProcess
    private let directory: TemporaryDirectory

    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The launcher, found from this file's place in the repository.
    public static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Peers/rootcanal_peer.py").path
    }

    /// Why RootCanal cannot run on this machine (the package, the loader or socat is missing),
    /// nil when it can; asked once.
    public static let missing: String? = {
        guard let r = try? ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, "--check"], timeout: 30) else {
            return "python3 could not run \(script)"
        }
        let answer = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return r.status == 0 && answer == "ok" ? nil : (answer.isEmpty ? r.stderr : answer)
    }()

    /// Whether the tests that need RootCanal run: when it is installed, and always on CI
    /// (`CI=true`), where a missing RootCanal must fail them (`requireInstalled`) rather than skip.
    public static var testsRun: Bool {
        missing == nil || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    /// Throws, with what to do, when RootCanal cannot run here.
    public static func requireInstalled() throws {
        if let missing {
            throw Unavailable(description: "RootCanal cannot run here: \(missing); scripts/ensure-deps installs rootcanal==1.13.0, socat and the Debian 13 loader")
        }
    }

    /// Starts RootCanal with one bridged pty per name in `ptys` (none: only the TCP port), and
    /// waits at most `timeout` seconds for it to listen and for every bridge to connect.
    public init(ptys names: [String] = [], portBase: Int? = nil, timeout: TimeInterval = 20) throws {
        try Self.requireInstalled()
        directory = try TemporaryDirectory("rootcanal")
        logPath = directory.file("rootcanal.log")
        var links: [String: String] = [:]
        var arguments = [Self.script, "--log", logPath, "--timeout", "\(Int(timeout / 2))"]
        if let portBase { arguments += ["--port-base", "\(portBase)"] }
        for name in names {
            let link = directory.file("pty-\(name)")
            links[name] = link
            arguments += ["--pty", link]
        }
        ptys = links
        process = try BackgroundProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments)
        guard let ready = process.line(timeout: timeout, where: { $0.hasPrefix("ready ") }) else {
            let result = process.stop(grace: 5)
            throw Unavailable(description: "RootCanal did not start within \(timeout) s (status \(result.status)): "
                              + (result.stderr.isEmpty ? result.stdout : result.stderr).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let fields = Dictionary(ready.split(separator: " ").dropFirst().compactMap { pair -> (String, String)? in
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            return kv.count == 2 ? (kv[0], kv[1]) : nil
        }, uniquingKeysWith: { a, _ in a })
        guard let base = fields["port_base"].flatMap(Int.init) else {
            process.stop(grace: 5)
            throw Unavailable(description: "RootCanal's launcher said '\(ready)'")
        }
        self.portBase = base
    }

    /// The link of the pty named `name` in `init`.
    public func pty(_ name: String) -> String {
        guard let link = ptys[name] else { preconditionFailure("no pty named \(name): \(ptys.keys.sorted())") }
        return link
    }

    public var isRunning: Bool { process.isRunning }

    /// What the launcher printed on stderr so far (bridges started again, RootCanal's end).
    public var stderr: String { process.stderr }

    /// RootCanal's and socat's output so far.
    public func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Stops RootCanal and every bridge (idempotent); the launcher's status and output.
    @discardableResult
    public func stop() -> ToolProcess.Result { process.stop(grace: 10) }

    deinit { stop() }
}
