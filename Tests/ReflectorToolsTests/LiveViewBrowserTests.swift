import Foundation
@testable import ReflectorTools
import TestSupport
import Testing

/// `loopback --view` in a real browser: the tool runs 50 procedures with its page held open,
/// headless Chromium (`Tests/Peers/view_browser.py`, Selenium) reads the event stream and the
/// page and checks them against the JSON Lines the same run printed and the summary line the
/// same seed prints in text; then Ctrl-C ends the tool cleanly. One browser session: CI time.
@Suite struct LiveViewBrowserTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Peers").appendingPathComponent("view_browser.py")

    @Test func theBrowserSeesTheRunItsJSONLinesTell() throws {
        let arguments = ["loopback", "--procedures", "50", "--seed", "4", "--no-progress"]
        let tool = try BackgroundProcess(ToolProcess.executable, arguments + ["--view", "0", "--view-hold", "--json"])
        defer { tool.stop(signal: SIGKILL, grace: 1) }
        // The JSON Lines are out (flushed before holding) once the summary is.
        let summaryLine = try #require(tool.line(timeout: 120) { $0.hasPrefix("{\"summary\"") }, "no summary: \(tool.stderr)")
        let url = try #require(tool.stderr.split(separator: "\n").compactMap { line -> String? in
            line.hasPrefix("view: http://127.0.0.1:") ? String(line.dropFirst(6)) : nil
        }.first, "no address on stderr: \(tool.stderr)")
        let lines = tool.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 51 && lines.last == summaryLine)
        let text = try LoopbackCommand.run(Array(arguments.dropFirst()))
        let summaryText = try #require(text.lines.last, "no text summary")
        try #require(summaryText.hasPrefix("summary: "))
        try TemporaryDirectory.with("view-browser") { dir in
            let jsonl = try dir.write(tool.stdout, name: "run.jsonl")
            let browser = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                              ["python3", Self.script.path, url, jsonl, summaryText, dir.file("page.png")], timeout: 150)
            #expect(browser.status == 0 && !browser.timedOut, "\(browser.stdout)\n\(browser.stderr.suffix(3000))")
            let report = try JSONSerialization.jsonObject(with: Data(browser.stdout.utf8)) as? [String: Any]
            #expect(report?["points"] as? Int == 50, "\(browser.stdout)")
            #expect(FileManager.default.fileExists(atPath: dir.file("page.png")))
        }
        // Ctrl-C with the page's server up: a clean end.
        #expect(tool.isRunning, "the tool did not hold the page")
        let end = tool.stop(signal: SIGINT, grace: 10)
        #expect(end.status == 0, "\(end.stderr)")
        #expect(end.stderr.contains("view: serving \(url) until Ctrl-C"))
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

extension LiveViewBrowserTests {
    /// `estimate --view` replays a capture: the stream carries each procedure's JSON Lines
    /// record to the octet, and plots for every one (no browser: the page is the one above).
    @Test func estimateReplaysItsCaptureToThePage() throws {
        try TemporaryDirectory.with("view-estimate") { dir in
            let capture = dir.file("run.btsnoop")
            _ = try LoopbackCommand.run(["--procedures", "12", "--btsnoop", capture, "--no-progress"])
            let tool = try BackgroundProcess(ToolProcess.executable, ["estimate", capture, "--json", "--view", "0", "--view-hold"])
            defer { tool.stop(signal: SIGKILL, grace: 1) }
            try #require(tool.line(timeout: 60) { $0.hasPrefix("{\"procedure_counter\": 11,") } != nil, "\(tool.stderr)")
            let url = try #require(tool.stderr.split(separator: "\n").first { $0.hasPrefix("view: http://127.0.0.1:") }).dropFirst(6)
            let jsonl = try dir.write(tool.stdout, name: "estimate.jsonl")
            let stream = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.script.path, "--stream", String(url), jsonl],
                                             timeout: 90)
            #expect(stream.status == 0, "\(stream.stdout)\n\(stream.stderr.suffix(2000))")
            let report = try JSONSerialization.jsonObject(with: Data(stream.stdout.utf8)) as? [String: Any]
            // The set-up, 12 procedures with their 12 tone sets, the summary.
            #expect(report?["events"] as? Int == 26, "\(stream.stdout)")
            #expect(report?["summary"] as? String == "summary: 12 of 12 procedures in the capture gave a distance")
            #expect(tool.stop(signal: SIGINT, grace: 10).status == 0)
        }
    }
}

extension BoardBenchTests {
    /// `range --view` over a served board: the stream carries each procedure's JSON Lines
    /// record to the octet, with the board's tones for the plots, and the summary; Ctrl-C ends
    /// the held tool cleanly.
    @Suite struct RangeViewTests {
        @Test func rangeStreamsWhatItPrints() throws {
            let board = try ServedBoard(["--role", "initiator", "--channel", "free", "--distance", "3.3"])
            defer { board.stop() }
            let tool = try BackgroundProcess(ToolProcess.executable, ["range", "--pty", board.link, "--procedures", "4", "--truth", "3.3",
                                                                      "--json", "--view", "0", "--view-hold"])
            defer { tool.stop(signal: SIGKILL, grace: 1) }
            try #require(tool.line(timeout: 60) { $0.hasPrefix("{\"summary\"") } != nil, "\(tool.stderr)")
            let url = try #require(tool.stderr.split(separator: "\n").first { $0.hasPrefix("view: http://127.0.0.1:") }).dropFirst(6)
            try TemporaryDirectory.with("view-range") { dir in
                let jsonl = try dir.write(tool.stdout, name: "range.jsonl")
                let stream = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                                 ["python3", LiveViewBrowserTests.script.path, "--stream", String(url), jsonl], timeout: 90)
                #expect(stream.status == 0, "\(stream.stdout)\n\(stream.stderr.suffix(2000))")
                let report = try JSONSerialization.jsonObject(with: Data(stream.stdout.utf8)) as? [String: Any]
                // The set-up, 4 procedures with their tones, the summary.
                #expect(report?["events"] as? Int == 10, "\(stream.stdout)")
                #expect((report?["summary"] as? String)?.hasPrefix("summary: 4 of 4 procedures gave a distance") == true, "\(stream.stdout)")
            }
            #expect(tool.stop(signal: SIGINT, grace: 10).status == 0)
        }
    }
}

extension BoardBenchTests {
    /// `accessory --view` over two served boards, `range` the phone: the stream carries each
    /// procedure the reflector measured as its JSON Lines record to the octet, then the summary.
    @Suite struct AccessoryViewTests {
        @Test func accessoryStreamsWhatItPrints() throws {
            let dir = try TemporaryDirectory("view-accessory")
            let bonds = try AccessoryCommandTests.bondFile(dir)
            let boards = try ServedBoard(["--distance", "2.5", "--channel", "free"], boards: 2)
            defer { boards.stop() }
            let accessory = try BackgroundProcess(ToolProcess.executable, ["accessory", "--pty", boards.links[0], "--bonds", bonds, "--procedures", "3",
                                                                           "--json", "--view", "0", "--view-hold"])
            defer { accessory.stop(signal: SIGKILL, grace: 1) }
            let phoneDone = DispatchSemaphore(value: 0)
            let phoneLink = boards.links[1]
            DispatchQueue.global().async {
                _ = try? ToolProcess.run(["range", "--pty", phoneLink, "--procedures", "3"], timeout: 60)
                phoneDone.signal()
            }
            defer { _ = phoneDone.wait(timeout: .now() + 60) }
            try #require(accessory.line(timeout: 60) { $0.hasPrefix("{\"summary\"") } != nil, "\(accessory.stderr)")
            let url = try #require(accessory.stderr.split(separator: "\n").first { $0.hasPrefix("view: http://127.0.0.1:") }).dropFirst(6)
            let jsonl = try dir.write(accessory.stdout, name: "accessory.jsonl")
            let stream = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                             ["python3", LiveViewBrowserTests.script.path, "--stream", String(url), jsonl], timeout: 90)
            #expect(stream.status == 0, "\(stream.stdout)\n\(stream.stderr.suffix(2000))")
            let report = try JSONSerialization.jsonObject(with: Data(stream.stdout.utf8)) as? [String: Any]
            // The set-up, 3 procedures (no plots: the reflector's PCTs stay in its host), the summary.
            #expect(report?["events"] as? Int == 5, "\(stream.stdout)")
            #expect((report?["summary"] as? String)?.hasPrefix("summary: 3 procedures measured over") == true, "\(stream.stdout)")
            #expect(accessory.stop(signal: SIGINT, grace: 10).status == 0)
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
        let page = try StreamReader(port: port, deadline: 60)
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

    /// `GET /events` on 127.0.0.1:`port`, connecting again until the server listens (it starts
    /// with the run), every read with a deadline.
    final class StreamReader {
        let fd: Int32
        private(set) var received: [UInt8] = []
        var text: String { String(decoding: received, as: UTF8.self) }

        init(port: UInt16, deadline seconds: Double) throws {
            let deadline = Date(timeIntervalSinceNow: seconds)
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = port.bigEndian
            a.sin_addr.s_addr = inet_addr("127.0.0.1")
            while true {
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                if withUnsafePointer(to: &a, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }) == 0 {
                    self.fd = fd
                    break
                }
                close(fd)
                guard Date() < deadline else { throw ToolError.usage("nothing listened on port \(port) within \(seconds) s") }
                usleep(20_000)
            }
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

extension LiveViewBrowserTests {
    /// `tdoa --view` replays the run: the floor map (anchors, zones), each fix as its JSON
    /// Lines record to the octet, the summary.
    @Test func tdoaReplaysItsFixesWithTheFloorMap() throws {
        let tool = try BackgroundProcess(ToolProcess.executable, ["tdoa", "--json", "--view", "0", "--view-hold"])
        defer { tool.stop(signal: SIGKILL, grace: 1) }
        let summary = try #require(tool.line(timeout: 120) { $0.hasPrefix("{\"summary\"") }, "\(tool.stderr)")
        let url = try #require(tool.stderr.split(separator: "\n").first { $0.hasPrefix("view: http://127.0.0.1:") }).dropFirst(6)
        let fixes = tool.stdout.split(separator: "\n").count - 1
        try TemporaryDirectory.with("view-tdoa") { dir in
            let jsonl = try dir.write(tool.stdout, name: "tdoa.jsonl")
            let stream = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.script.path, "--stream", String(url), jsonl], timeout: 90)
            #expect(stream.status == 0, "\(stream.stdout)\n\(stream.stderr.suffix(2000))")
            let report = try JSONSerialization.jsonObject(with: Data(stream.stdout.utf8)) as? [String: Any]
            // The set-up, the map, every fix, the summary.
            #expect(report?["events"] as? Int == fixes + 3, "\(stream.stdout)")
            #expect((report?["summary"] as? String)?.contains("summary: \(fixes) fixes") == true, "\(stream.stdout) \(summary)")
        }
        #expect(tool.stop(signal: SIGINT, grace: 10).status == 0)
    }
}

extension LiveViewBrowserTests {
    /// `nearby --view` replays the run: each update and event as its JSON Lines record to the
    /// octet, the summary.
    @Test func nearbyReplaysItsUpdates() throws {
        let tool = try BackgroundProcess(ToolProcess.executable, ["nearby", "--hint", "stationary", "--duration", "4", "--json", "--view", "0", "--view-hold"])
        defer { tool.stop(signal: SIGKILL, grace: 1) }
        try #require(tool.line(timeout: 120) { $0.hasPrefix("{\"summary\"") } != nil, "\(tool.stderr)")
        let url = try #require(tool.stderr.split(separator: "\n").first { $0.hasPrefix("view: http://127.0.0.1:") }).dropFirst(6)
        let lines = tool.stdout.split(separator: "\n").count
        try TemporaryDirectory.with("view-nearby") { dir in
            let jsonl = try dir.write(tool.stdout, name: "nearby.jsonl")
            let stream = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.script.path, "--stream", String(url), jsonl], timeout: 90)
            #expect(stream.status == 0, "\(stream.stdout)\n\(stream.stderr.suffix(2000))")
            let report = try JSONSerialization.jsonObject(with: Data(stream.stdout.utf8)) as? [String: Any]
            // The set-up, every record, the summary (the last line).
            #expect(report?["events"] as? Int == lines + 1, "\(stream.stdout)")
            #expect((report?["summary"] as? String)?.contains("summary: ") == true, "\(stream.stdout)")
        }
        #expect(tool.stop(signal: SIGINT, grace: 10).status == 0)
    }
}
