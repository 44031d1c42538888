import Foundation
import TestSupport
import Testing

/// The transcripts of README.md and of the pages under docs/ are the tool's output: every fenced
/// block that starts with `$ reflector-emu ...` is run (serve, check, ports, flash, range and
/// accessory need a board or a pty and are left to their own tests, and a block marked
/// `<!-- not run: why -->` is not run: `scripts/doc-examples` lists it) and its lines must appear
/// in the output in order. A `...` line stands for any number of output lines; elsewhere the
/// lines follow one another exactly. A `--plot docs/NAME.svg` in the command is written to a
/// temporary file that must equal the committed chart byte for byte, so the pictures in the
/// documentation are pinned too.
@Suite struct ReadmeTranscriptTests {
    struct Transcript: CustomTestStringConvertible, Sendable {
        var file: String
        var line: Int
        var command: [String]
        var expected: [String]
        var testDescription: String { "\(file) line \(line): \(command.joined(separator: " "))" }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let needsHardware: Set<String> = ["serve", "check", "ports", "flash", "range", "accessory"]

    /// README.md and the Markdown pages under docs/, relative to the root.
    static var pages: [String] {
        var out = ["README.md"]
        if let walk = FileManager.default.enumerator(atPath: root.appendingPathComponent("docs").path) {
            for case let path as String in walk where path.hasSuffix(".md") { out.append("docs/" + path) }
        }
        return out.sorted()
    }

    /// The runnable transcripts of every page.
    static let transcripts: [Transcript] = pages.flatMap { page -> [Transcript] in
        guard let text = try? String(contentsOf: root.appendingPathComponent(page), encoding: .utf8) else { return [] }
        return transcripts(in: text, file: page)
    }

    /// The runnable transcripts of one page's text.
    static func transcripts(in text: String, file: String) -> [Transcript] {
        let lines = text.components(separatedBy: "\n")
        var out: [Transcript] = []
        var i = 0
        while i < lines.count {
            defer { i += 1 }
            guard lines[i] == "```", i + 1 < lines.count, lines[i + 1].hasPrefix("$ reflector-emu ") else { continue }
            var k = i - 1
            while k >= 0, lines[k].trimmingCharacters(in: .whitespaces).isEmpty { k -= 1 }
            let notRun = k >= 0 && lines[k].hasPrefix("<!-- not run:")
            let command = lines[i + 1].dropFirst(2).split(separator: " ").map(String.init)
            var body: [String] = []
            var j = i + 2
            while j < lines.count, lines[j] != "```" { body.append(lines[j]); j += 1 }
            if command.count > 1, !needsHardware.contains(command[1]), !notRun {
                out.append(Transcript(file: file, line: i + 2, command: command, expected: body))
            }
            i = j
        }
        return out
    }

    @Test func theReadmeHasTranscripts() {
        #expect(Self.transcripts.count >= 8, "\(Self.transcripts.map(\.testDescription))")
        #expect(Self.transcripts.contains { $0.file == "README.md" && $0.command == ["reflector-emu", "loopback"] })
        for page in ["docs/commands/tdoa.md", "docs/commands/tdoa-plan.md", "docs/commands/nearby.md", "docs/commands/sweep.md", "docs/commands/plan.md"] {
            #expect(Self.transcripts.contains { $0.file == page }, "no transcript of \(page)")
        }
    }

    @Test func notRunBlocksAndBoardsAreLeftOut() {
        let text = "```\n$ reflector-emu loopback\nout\n```\n\n<!-- not run: minutes -->\n```\n$ reflector-emu tdoa study\n```\n```\n$ reflector-emu range --pty /tmp/B\n```\n"
        #expect(Self.transcripts(in: text, file: "x.md").map(\.command) == [["reflector-emu", "loopback"]])
    }

    @Test(arguments: transcripts) func transcriptIsTheOutput(_ t: Transcript) throws {
        try TemporaryDirectory.with("readme") { dir in
            var arguments = Array(t.command.dropFirst())
            var charts: [(committed: URL, written: String)] = []
            for k in arguments.indices {
                if k > 0, arguments[k - 1] == "--plot" {
                    let written = dir.file("chart-\(k).svg")
                    charts.append((Self.root.appendingPathComponent(arguments[k]), written))
                    arguments[k] = written
                } else if arguments[k].hasPrefix("Examples/") || arguments[k].hasPrefix("docs/") {
                    arguments[k] = Self.root.appendingPathComponent(arguments[k]).path
                }
            }
            let r = try ToolProcess.run(arguments, timeout: 120)
            try #require(r.status == 0 && !r.timedOut, "exit \(r.status): \(r.stderr)")
            let output = r.stdout.components(separatedBy: "\n")
            if let mismatch = Self.mismatch(expected: t.expected, output: output) {
                Issue.record("\(t.file) line \(t.line + mismatch.index + 1): \(mismatch.reason)\nexpected: \(t.expected[mismatch.index])")
            }
            for chart in charts {
                let committed = try Data(contentsOf: chart.committed)
                let written = try Data(contentsOf: URL(fileURLWithPath: chart.written))
                #expect(written == committed, "\(chart.committed.lastPathComponent) differs from what the command writes (\(written.count) octets, committed \(committed.count))")
            }
        }
    }

    /// The first expected line the output does not hold in order, or nil.
    static func mismatch(expected: [String], output: [String]) -> (index: Int, reason: String)? {
        var next = 0
        var gap = false
        for (index, line) in expected.enumerated() {
            if line == "..." {
                gap = true
                continue
            }
            if gap {
                guard let found = output[next...].firstIndex(of: line) else { return (index, "not in the output after line \(next + 1)") }
                next = found + 1
            } else {
                guard next < output.count, output[next] == line else {
                    return (index, "output line \(next + 1) is \(next < output.count ? "\"\(output[next])\"" : "missing")")
                }
                next += 1
            }
            gap = false
        }
        return nil
    }

    @Test func matchingRules() {
        let out = ["a", "b", "c", "d"]
        #expect(Self.mismatch(expected: ["a", "b"], output: out) == nil)
        #expect(Self.mismatch(expected: ["a", "...", "d"], output: out) == nil)
        #expect(Self.mismatch(expected: ["a", "c"], output: out)?.index == 1)
        #expect(Self.mismatch(expected: ["a", "...", "e"], output: out)?.index == 2)
        #expect(Self.mismatch(expected: ["b"], output: out)?.index == 0)
    }
}
