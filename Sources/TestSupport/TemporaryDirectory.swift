import Foundation

/// A directory of its own for one test, removed when the test is done, so tests never share
/// fixed paths in /tmp or leave files behind.
public final class TemporaryDirectory {
    public let url: URL
    public var path: String { url.path }

    public init(_ label: String = "test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("reflector-emu-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory (the file need not exist).
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Runs `body` with a fresh directory and removes it afterwards, also when `body` throws.
    public static func with<T>(_ label: String = "test", _ body: (TemporaryDirectory) throws -> T) throws -> T {
        let directory = try TemporaryDirectory(label)
        return try withExtendedLifetime(directory) { try body(directory) }
    }
}
