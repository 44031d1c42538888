import Foundation
@testable import ReflectorTools
@testable import ToolJSON
import TestSupport
import Testing

/// The live view in a real browser: each command runs with its page held open, headless
/// Chromium (`Tests/Peers/view_browser.py`, Selenium) reads each event stream and each page and
/// checks them against the JSON Lines the same run printed (and the summary line the same run
/// prints in text); then Ctrl-C ends each tool cleanly. One browser session for loopback,
/// estimate, nearby and tdoa, one for range and accessory over served boards: CI's time.
@Suite struct LiveViewBrowserTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Peers").appendingPathComponent("view_browser.py")

    /// A command holding its page: its process, the page's address, what it printed.
    struct HeldView {
        let kind: String
        let tool: BackgroundProcess
        let url: String

        /// Starts `arguments` with `--json --view 0 --view-hold` and waits for its last JSON line.
        init(_ kind: String, _ arguments: [String], lastLine: @escaping (String) -> Bool) throws {
            self.kind = kind
            tool = try BackgroundProcess(ToolProcess.executable, arguments + ["--json", "--view", "0", "--view-hold"])
            let tool = self.tool
            try #require(tool.line(timeout: 120, where: lastLine) != nil, "\(kind): no last line: \(tool.stderr)")
            url = try #require(tool.line(timeout: 30, on: .stderr) { $0.hasPrefix("view: http://127.0.0.1:") }.map { String($0.dropFirst(6)) },
                               "\(kind): no address on stderr: \(tool.stderr)")
        }

        /// The page's entry for `view_browser.py --pages`, with a screenshot in `dir` (or, with
        /// REFLECTOR_EMU_SCREENSHOTS=DIR set, `DIR/view-KIND.png`: how docs/view-*.png are made).
        func page(_ dir: TemporaryDirectory, summary: String?) throws -> [String: Any] {
            ["kind": kind, "url": url, "jsonl": try dir.write(tool.stdout, name: "\(kind).jsonl"), "summary": summary ?? NSNull(),
             "screenshot": screenshot(dir)]
        }

        func screenshot(_ dir: TemporaryDirectory) -> String {
            ProcessInfo.processInfo.environment["REFLECTOR_EMU_SCREENSHOTS"].map { "\($0)/view-\(kind).png" } ?? dir.file("\(kind).png")
        }

        /// Ctrl-C: the held tool ends with its run's status (0 unless `statuses` allow more) and
        /// said it was serving.
        func interrupt(statuses: Set<Int32> = [0]) {
            let end = tool.stop(signal: SIGINT, grace: 10)
            #expect(statuses.contains(end.status), "\(kind): status \(end.status): \(end.stderr)")
            #expect(end.stderr.contains("view: serving \(url) until Ctrl-C"), "\(kind): \(end.stderr)")
        }
    }

    /// Runs the browser over `pages`; its report.
    static func browse(_ pages: [[String: Any]], _ dir: TemporaryDirectory) throws -> [String: Any] {
        let spec = try dir.write(Array(try JSONSerialization.data(withJSONObject: pages)), name: "pages.json")
        let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, "--pages", spec], timeout: 300)
        #expect(r.status == 0 && !r.timedOut, "\(r.stdout)\n\(r.stderr.suffix(3000))")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
    }

    /// The summary a text run prints: from its "summary:" to the end.
    static func textSummary(_ run: CommandRun) throws -> String {
        let range = try #require(run.output.range(of: "summary:"), "no summary in \(run.output.suffix(300))")
        return run.output[range.lowerBound...].trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theBrowserSeesEachRunAsItsJSONLinesTellIt() throws {
        try TemporaryDirectory.with("view-browser") { dir in
            let capture = dir.file("run.btsnoop")
            _ = try LoopbackCommand.run(["--procedures", "12", "--btsnoop", capture, "--no-progress"])
            let loopbackArguments = ["--procedures", "50", "--seed", "4", "--no-progress"]
            let nearbyArguments = ["--hint", "stationary", "--duration", "4"]
            let isSummary: (String) -> Bool = { $0.hasPrefix("{\"summary\"") }
            let views = [
                try HeldView("loopback", ["loopback"] + loopbackArguments, lastLine: isSummary),
                try HeldView("estimate", ["estimate", capture], lastLine: { $0.hasPrefix("{\"procedure_counter\": 11,") }),
                try HeldView("nearby", ["nearby"] + nearbyArguments, lastLine: isSummary),
                try HeldView("tdoa", ["tdoa"], lastLine: isSummary),
            ]
            defer { for v in views { v.tool.stop(signal: SIGKILL, grace: 1) } }
            #expect(views[0].tool.stdout.split(separator: "\n").count == 51)
            let summaries = [
                try Self.textSummary(try LoopbackCommand.run(loopbackArguments)),
                "summary: 12 of 12 procedures in the capture gave a distance",
                try Self.textSummary(try NearbyCommand.run(nearbyArguments)),
                try Self.textSummary(try TDoACommand.run([])),
            ]
            let pages = try zip(views, summaries).map { v, s in try v.page(dir, summary: s) }
            let report = try Self.browse(pages, dir)
            let results = report["pages"] as? [[String: Any]] ?? []
            #expect(results.count == 4, "\(report)")
            #expect(results.first?["points"] as? Int == 50, "\(report)")
            for v in views { #expect(FileManager.default.fileExists(atPath: v.screenshot(dir)), "\(v.kind)") }
            // Ctrl-C with the pages' servers up: a clean end.
            for v in views { v.interrupt() }
        }
    }

    @Test func withoutHoldTheRunEndsAndAForeignAddressIsSaidSo() throws {
        let r = try ToolProcess.run(["loopback", "--procedures", "3", "--view", "0.0.0.0:0", "--json", "--no-progress"], timeout: 120)
        #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
        #expect(r.stderr.contains("view: serving on 0.0.0.0:"), "\(r.stderr)")
        #expect(r.stderr.contains("which other machines can reach"))
        #expect(r.stdout.split(separator: "\n").count == 4)
        let bad = try ToolProcess.run(["loopback", "--view", "host.example:80"], timeout: 60)
        #expect(bad.status == 2 && bad.stderr.contains("--view must be [ADDR:]PORT"), "\(bad.stderr)")
    }
}

extension BoardBenchTests {
    /// `range --view` and `accessory --view` over two served boards, range the phone of the
    /// accessory: both streams carry each record as its JSON Lines octets, range's trace and
    /// plots and accessory's table are drawn in the browser, and Ctrl-C ends both cleanly.
    @Suite struct BoardViewTests {
        @Test func rangeAndAccessoryInTheBrowser() throws {
            let dir = try TemporaryDirectory("view-boards")
            let bonds = try AccessoryCommandTests.bondFile(dir)
            let boards = try ServedBoard(["--distance", "2.5", "--channel", "free"], boards: 2)
            defer { boards.stop() }
            // The accessory first, then the phone; each holds its page after 4 procedures.
            let accessoryLink = boards.links[0], phoneLink = boards.links[1]
            final class Box: @unchecked Sendable { var view: LiveViewBrowserTests.HeldView?; var error: Error? }
            let accessory = Box()
            let started = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                do {
                    accessory.view = try LiveViewBrowserTests.HeldView("accessory", ["accessory", "--pty", accessoryLink, "--bonds", bonds, "--procedures", "4"],
                                                                       lastLine: { $0.hasPrefix("{\"summary\"") })
                } catch { accessory.error = error }
                started.signal()
            }
            // --once: a phone whose reflector leaves first (the accessory stops after its 4th) ends, with status 1, rather than looking again.
            let range = try LiveViewBrowserTests.HeldView("range", ["range", "--pty", phoneLink, "--procedures", "4", "--once", "--truth", "2.5", "--no-progress"],
                                                          lastLine: { $0.hasPrefix("{\"summary\"") })
            defer { range.tool.stop(signal: SIGKILL, grace: 1) }
            _ = started.wait(timeout: .now() + 150)
            if let e = accessory.error { throw e }
            let held = try #require(accessory.view, "the accessory did not hold its page")
            defer { held.tool.stop(signal: SIGKILL, grace: 1) }
            let report = try LiveViewBrowserTests.browse([try range.page(dir, summary: nil), try held.page(dir, summary: nil)], dir)
            #expect((report["pages"] as? [[String: Any]])?.count == 2, "\(report)")
            for v in [range, held] { #expect(FileManager.default.fileExists(atPath: v.screenshot(dir)), "\(v.kind)") }
            range.interrupt(statuses: [0, 1])
            held.interrupt()
        }
    }
}

extension LiveViewBrowserTests {
    /// Ctrl-C in the middle of a long run with a page attached: the run stops, prints its
    /// summary, the page is given it before its stream closes, and the tool exits 0.
    @Test func ctrlCMidRunEndsCleanlyWithAPageAttached() throws {
        let port = try Self.freePort()
        let tool = try BackgroundProcess(ToolProcess.executable, ["loopback", "--procedures", "1000000", "--json", "--no-progress", "--view", "\(port)"])
        defer { tool.stop(signal: SIGKILL, grace: 1) }
        // The first procedure's line: the view's server has been listening since before it.
        try #require(tool.line(timeout: 60) { $0.hasPrefix("{") } != nil, "\(tool.stderr)")
        let page = try StreamReader(port: port)
        try page.read(until: "event: procedure", deadline: 60)
        kill(tool.process.processIdentifier, SIGINT)
        try page.read(until: nil, deadline: 30)
        #expect(page.text.contains("event: summary"), "\(page.text.suffix(500))")
        let end = tool.stop(signal: nil, grace: 30)
        #expect(end.status == 0, "\(end.stderr)")
        #expect(end.stdout.split(separator: "\n").last?.hasPrefix("{\"summary\": {") == true)
    }

    /// A port nothing listens on now (the system's choice for port 0).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try #require(withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } } == 0)
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return UInt16(bigEndian: a.sin_port)
    }

    /// `GET /events` on 127.0.0.1:`port`: one connection, made once the tool has said it is
    /// ranging (its server listens before the first procedure), every read with a deadline.
    final class StreamReader {
        let fd: Int32
        private(set) var received: [UInt8] = []
        var text: String { String(decoding: received, as: UTF8.self) }

        init(port: UInt16) throws {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = port.bigEndian
            a.sin_addr.s_addr = inet_addr("127.0.0.1")
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard withUnsafePointer(to: &a, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }) == 0 else {
                close(fd)
                throw ToolError.usage("nothing listens on port \(port)")
            }
            self.fd = fd
            let request = Array("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        deinit { close(fd) }

        /// Reads until `marker` has arrived (nil: until the server closes), or throws at the deadline.
        func read(until marker: String?, deadline seconds: Double) throws {
            let deadline = Date(timeIntervalSinceNow: seconds)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while marker.map({ !text.contains($0) }) ?? true {
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { throw ToolError.usage("no \(marker ?? "end of the stream") within \(seconds) s") }
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, Int32(min(left, 1) * 1000)) > 0 else { continue }
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 {
                    guard marker == nil else { throw ToolError.usage("the stream ended before \(marker!)") }
                    return
                }
                received += buffer[0..<n]
            }
        }
    }
}

