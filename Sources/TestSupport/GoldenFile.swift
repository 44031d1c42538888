import Foundation
import Testing

/// Output compared with a committed file (a golden file) in `Golden/` beside the test: what a
/// renderer writes must not change between runs or machines (hash-seeded ordering, locale,
/// floating-point formatting), which comparing two renders in one process cannot show.
///
/// To regenerate after an intended change: `REFLECTOR_UPDATE_GOLDEN=1 swift test --filter …`
/// writes the files instead of comparing (the test then records an issue, so an update is never
/// mistaken for a pass); review the diff and commit them.
public enum GoldenFile {
    public static let updateVariable = "REFLECTOR_UPDATE_GOLDEN"

    /// Expects `text` to equal `Golden/<name>` beside the file at `filePath`.
    public static func expect(_ text: String, equals name: String, filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Golden").appendingPathComponent(name)
        if ProcessInfo.processInfo.environment[updateVariable] == "1" {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
                Issue.record("wrote \(url.path) (\(updateVariable)=1): review and commit it", sourceLocation: sourceLocation)
            } catch {
                Issue.record("could not write \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let golden = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("no golden file \(url.path): run with \(updateVariable)=1 to write it", sourceLocation: sourceLocation)
            return
        }
        guard text != golden else { return }
        let ours = text.split(separator: "\n", omittingEmptySubsequences: false), theirs = golden.split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(ours.count, theirs.count)
        let got = line < ours.count ? String(ours[line].prefix(200)) : "(end)", wanted = line < theirs.count ? String(theirs[line].prefix(200)) : "(end)"
        Issue.record("differs from \(name) at line \(line + 1): \(got)\n golden: \(wanted)\n(\(updateVariable)=1 rewrites it after an intended change)",
                     sourceLocation: sourceLocation)
    }
}
