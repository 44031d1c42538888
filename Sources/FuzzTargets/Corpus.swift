import Foundation

/// The fuzz corpora in the repository: `Fuzz/corpus/<target>/` holds the generated seeds,
/// `Fuzz/regressions/<target>/` every input a campaign found a bug with (kept after the fix).
public enum Corpus {
    /// The repository's `Fuzz` folder (found from this source file, as the tests find theirs).
    public static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The committed inputs of `target`: seeds, then regressions.
    public static func inputs(of target: String) -> [(name: String, bytes: [UInt8])] {
        ["corpus", "regressions"].flatMap { files(in: folder.appendingPathComponent($0).appendingPathComponent(target)) }
    }

    /// Every regular file under `url` (or `url` itself), sorted by path.
    public static func files(in url: URL) -> [(name: String, bytes: [UInt8])] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return [] }
        if !isDirectory.boolValue {
            return FileManager.default.contents(atPath: url.path).map { [(url.lastPathComponent, [UInt8]($0))] } ?? []
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.sorted().flatMap { files(in: url.appendingPathComponent($0)) }
    }

    /// Writes the generated seeds of `target` into `directory/<target>/`, one file each, named
    /// by a hash of their content; returns how many.
    @discardableResult
    public static func writeSeeds(of target: FuzzTarget, to directory: URL) throws -> Int {
        let folder = directory.appendingPathComponent(target.name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var written = Set<String>()
        for seed in target.seeds() {
            let name = "seed-" + fnv1a(seed)
            guard written.insert(name).inserted else { continue }
            try Data(seed).write(to: folder.appendingPathComponent(name))
        }
        return written.count
    }

    /// FNV-1a, 64 bits, as 16 hex digits.
    static func fnv1a(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01B3
        }
        let digits = String(h, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
