import Foundation
import TestSupport
import Testing

/// The documentation's examples run. README.md and `docs/**/*.md` show their commands as lines of
/// fenced blocks with a prompt (and README's commands table as inline code); `scripts/doc-examples`
/// runs them, or lists those a block or row marks `<!-- not run: why -->`. This suite checks, in
/// a few seconds:
///
/// - every command line of the pages (found here on its own, more loosely than the runner does)
///   is one the runner either runs or lists as not run with a reason, and none is unclassified;
/// - the fast examples run: the runner over every page, less the transcripts
///   `ReadmeTranscriptTests` already runs (the long examples are marked not run, and
///   `scripts/doc-examples` with no flags runs everything else);
/// - every command and subcommand an example or synopsis names answers `--help`, and every
///   command of the tool has its page and its row in README's table;
/// - `docs/architecture.md`'s dependency column is what `Package.swift` declares.
@Suite struct DocExamplesTests {
    static let root = ReadmeTranscriptTests.root

    /// README.md and every Markdown page under docs/, as paths relative to the root.
    static var pages: [String] {
        var out = ["README.md"]
        let docs = root.appendingPathComponent("docs")
        if let walk = FileManager.default.enumerator(atPath: docs.path) {
            for case let path as String in walk where path.hasSuffix(".md") { out.append("docs/" + path) }
        }
        return out.sorted()
    }

    struct CommandLine: Hashable, CustomStringConvertible {
        var file: String
        var line: Int
        var text: String
        var description: String { "\(file):\(line): \(text)" }
    }

    /// The first word after `reflector-emu ` is a command (a word, not `reflector-emu: ` output).
    static func namesACommand(_ s: Substring) -> Bool {
        guard s.hasPrefix("reflector-emu ") else { return false }
        let word = s.dropFirst("reflector-emu ".count).prefix { !$0.isWhitespace }
        return !word.isEmpty && word.allSatisfy { $0.isLowercase || $0 == "-" } && !word.hasPrefix("-")
    }

    /// Every line of every page that reads as a command: in a fenced block other than a synopsis
    /// (json, swift and mermaid blocks hold no commands), after an optional `$ ` or `# ` prompt,
    /// `reflector-emu COMMAND`, `scripts/`, `python3 ` or `qemu-system-`; and in README's table
    /// rows, inline code `reflector-emu COMMAND ...`. The synopses, separately.
    static func scan() throws -> (commands: [CommandLine], synopses: [CommandLine]) {
        var commands: [CommandLine] = [], synopses: [CommandLine] = []
        for page in pages {
            let lines = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8).components(separatedBy: "\n")
            var info: String? = nil
            for (i, line) in lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if info == nil {
                    if trimmed.hasPrefix("```") {
                        info = String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                    } else if page == "README.md", trimmed.hasPrefix("|") {
                        for part in line.split(separator: "`", omittingEmptySubsequences: false).enumerated() where part.offset % 2 == 1 {
                            if namesACommand(part.element) { commands.append(CommandLine(file: page, line: i + 1, text: String(part.element))) }
                        }
                    }
                    continue
                }
                if trimmed == "```" { info = nil; continue }
                if ["json", "swift", "mermaid", "console-output"].contains(info!) { continue }
                if info == "synopsis", line.hasPrefix(" "), !synopses.isEmpty {
                    synopses[synopses.count - 1].text += " " + trimmed  // a synopsis continued
                    continue
                }
                if let last = commands.last, last.file == page, last.text.hasSuffix("\\") {
                    commands[commands.count - 1].text = last.text.dropLast().trimmingCharacters(in: .whitespaces) + " " + trimmed
                    continue
                }
                var body = Substring(line)
                if body.hasPrefix("$ ") || body.hasPrefix("# ") { body = body.dropFirst(2) }
                let isCommand = namesACommand(body) || body.hasPrefix("scripts/") || body.hasPrefix("python3 ") || body.hasPrefix("qemu-system-")
                guard isCommand else { continue }
                let found = CommandLine(file: page, line: i + 1, text: String(body))
                if info == "synopsis" { synopses.append(found) } else { commands.append(found) }
            }
        }
        return (commands, synopses)
    }

    struct Listed {
        var state: String
        var detail: String
        var command: String
    }

    /// The runner's own list (`scripts/doc-examples --tsv`): file:line → state, detail, command.
    static func runnerList() throws -> (rows: [String: Listed], status: Int32, stderr: String) {
        let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                    ["python3", root.appendingPathComponent("scripts/doc-examples").path, "--tsv"], timeout: 60)
        var rows: [String: Listed] = [:]
        for line in r.stdout.split(separator: "\n") {
            let f = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
            guard f.count == 5 else { continue }
            rows["\(f[0]):\(f[1])"] = Listed(state: f[2], detail: f[3], command: f[4])
        }
        return (rows, r.status, r.stderr)
    }

    @Test func everyExampleIsRunOrMarkedWithAReason() throws {
        let (commands, _) = try Self.scan()
        let (rows, status, stderr) = try Self.runnerList()
        #expect(commands.count >= 30, "\(commands.count) command lines found")
        let unclassified = rows.filter { $0.value.state == "unclassified" }.map { "\($0.key): \($0.value.detail): \($0.value.command)" }.sorted()
        #expect(unclassified.isEmpty, "examples neither run nor marked not run:\n\(unclassified.joined(separator: "\n"))")
        #expect(status == 0, "scripts/doc-examples --tsv exited \(status): \(stderr)")
        for c in commands {
            let key = "\(c.file):\(c.line)"
            guard let listed = rows[key] else {
                Issue.record("\(c): a command the runner does not see (give it a `$ ` prompt in a fenced block)")
                continue
            }
            #expect(listed.state == "run" || (listed.state == "not-run" && !listed.detail.isEmpty), "\(c): \(listed.state) \(listed.detail)")
        }
        // Every run example is a command of the tool, and most of the README's table runs.
        let readmeRun = rows.filter { $0.key.hasPrefix("README.md:") && $0.value.state == "run" }
        #expect(readmeRun.count >= 8, "\(readmeRun.count) README examples run")
        for (key, listed) in rows where listed.state == "run" {
            #expect(listed.command.hasPrefix("reflector-emu "), "\(key): \(listed.command)")
        }
    }

    /// The fast examples, run: every page's, less the transcripts ReadmeTranscriptTests runs and
    /// matches (the long ones are marked not run in the pages). A few seconds in a debug build.
    @Test func theFastExamplesRun() throws {
        let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                    ["python3", Self.root.appendingPathComponent("scripts/doc-examples").path,
                                     "--skip-transcripts", "--timeout", "60", "--tool", ToolProcess.executable.path], timeout: 240)
        #expect(r.status == 0 && !r.timedOut, "scripts/doc-examples --skip-transcripts exited \(r.status):\n\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("doc-examples: "), "\(r.stdout)")
    }

    /// `reflector-emu COMMAND [SUBCOMMAND]` of a line: the words that name a command.
    static func commandPath(_ text: String) -> [String] {
        let words = text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard words.count > 1, words[0] == "reflector-emu" else { return [] }
        var path = [words[1]]
        if words.count > 2, words[2].allSatisfy({ $0.isLowercase }), ["tdoa", "sweep"].contains(words[1]) { path.append(words[2]) }
        return path
    }

    /// The `--options` a command line names.
    static func options(_ text: String) -> Set<String> {
        var out: Set<String> = []
        for word in text.split(whereSeparator: { " [](|=".contains($0) }) where word.hasPrefix("--") && word.count > 2 {
            let name = word.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if name.count > 2 { out.insert(String(name)) }
        }
        return out
    }

    /// Every command and subcommand an example or synopsis names answers `--help`, and every
    /// option it names is one that help lists.
    @Test func everyCommandTheDocsNameAnswersHelp() throws {
        let (commands, synopses) = try Self.scan()
        var paths: [[String]: [CommandLine]] = [:]
        for c in commands + synopses where c.text.hasPrefix("reflector-emu ") {
            let path = Self.commandPath(c.text)
            if !path.isEmpty { paths[path, default: []].append(c) }
        }
        #expect(paths.count >= 12, "\(paths.keys)")
        for (path, lines) in paths.sorted(by: { $0.key.joined(separator: " ") < $1.key.joined(separator: " ") }) {
            let r = try ToolProcess.run(path + ["--help"], timeout: 30)
            #expect(r.status == 0, "\(lines[0]): reflector-emu \(path.joined(separator: " ")) --help exited \(r.status): \(r.stderr)")
            #expect(r.stdout.hasPrefix("usage: reflector-emu \(path.joined(separator: " "))"), "\(lines[0]): \(r.stdout.prefix(120))")
            let listed = Self.options(r.stdout)
            for line in lines {
                let unknown = Self.options(line.text).subtracting(listed).sorted()
                #expect(unknown.isEmpty, "\(line): \(unknown) not in reflector-emu \(path.joined(separator: " ")) --help")
            }
        }
    }

    /// The commands `reflector-emu --help` lists.
    static func toolCommands() throws -> [String] {
        let r = try ToolProcess.run(["--help"], timeout: 30)
        var out: [String] = []
        var inList = false
        for line in r.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "commands:" { inList = true; continue }
            guard inList else { continue }
            if line.isEmpty { break }
            if line.hasPrefix("  "), !line.hasPrefix("   ") { out.append(String(line.dropFirst(2).prefix { !$0.isWhitespace })) }
        }
        return out
    }

    @Test func everyCommandHasItsPageAndItsRow() throws {
        let commands = try Self.toolCommands()
        #expect(commands.count >= 12, "\(commands)")
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        for (name, page) in commands.map({ ($0, $0) }) + [("tdoa plan", "tdoa-plan")] {
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("docs/commands/\(page).md").path), "no docs/commands/\(page).md")
            #expect(readme.contains("| `\(name)` |"), "README's table has no row for \(name)")
            #expect(readme.contains("(docs/commands/\(page).md)"), "README does not link docs/commands/\(page).md")
        }
    }

    /// Package.swift's targets other than tests, each with the dependencies it declares.
    static func packageTargets() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var out: [String: Set<String>] = [:]
        for kind in [".target(", ".executableTarget(", ".systemLibrary("] {
            var rest = Substring(text)
            while let start = rest.range(of: kind) {
                rest = rest[start.upperBound...]
                guard let nameStart = rest.range(of: "name: \"") else { break }
                let afterName = rest[nameStart.upperBound...]
                let name = String(afterName.prefix { $0 != "\"" })
                // This target's text: up to the next target.
                let end = ["\n        .", "\n    ]"].compactMap { afterName.range(of: $0)?.lowerBound }.min() ?? afterName.endIndex
                let body = afterName[..<end]
                var deps: Set<String> = []
                if let d = body.range(of: "dependencies: [") {
                    let list = body[d.upperBound...].prefix { $0 != "]" }
                    for item in list.split(separator: ",") {
                        let dep = item.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                        if !dep.isEmpty { deps.insert(dep) }
                    }
                }
                out[name] = deps
            }
        }
        return out
    }

    @Test func architectureMatchesPackageSwift() throws {
        let targets = try Self.packageTargets()
        #expect(targets["BLEHost"] == ["ReflectorFirmware", "CCrypto"], "\(targets["BLEHost"] ?? [])")
        #expect(targets.count >= 30, "\(targets.keys.sorted())")
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        var documented: [String: Set<String>] = [:]
        for line in page.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 4, ["library", "executable", "system library"].contains(cells[2]) else { continue }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let deps = cells[3] == "nothing" ? [] : cells[3].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            documented[name] = Set(deps)
        }
        #expect(Set(documented.keys) == Set(targets.keys),
                "targets of Package.swift without a row: \(Set(targets.keys).subtracting(documented.keys).sorted()); rows without a target: \(Set(documented.keys).subtracting(targets.keys).sorted())")
        for (name, deps) in targets.sorted(by: { $0.key < $1.key }) {
            guard let listed = documented[name] else { continue }
            #expect(listed == deps, "\(name): docs/architecture.md says \(listed.sorted()), Package.swift \(deps.sorted())")
        }
    }
}
