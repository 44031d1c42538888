import Foundation

/// Reading a JSON file a command was given: at most `maximumSize` bytes (a bigger file is
/// refused before it is read whole), parsed, then read by `parse`; every error names the file.
public enum JSONFile {
    /// The largest JSON file the tool reads: far above any configuration or deployment (a few
    /// kilobytes), far below what would take a noticeable time to parse.
    public static let maximumSize = 8 << 20

    public static func read<T>(_ path: String, _ parse: (JSONValue) throws(ToolError) -> T) throws(ToolError) -> T {
        let bytes = try contents(path)
        do {
            return try parse(try JSONValue.parse(bytes: bytes))
        } catch {
            throw .badFile("\(path): \(error.description)")
        }
    }

    /// The bytes of the JSON file at `path`, at most `limit`.
    public static func contents(_ path: String, limit: Int = maximumSize) throws(ToolError) -> [UInt8] {
        try InputFile.contents(path, limit: limit, kind: "a JSON file")
    }
}

/// Reading a whole file a command was given, with a size limit: a regular file is refused by
/// its size before it is read; anything else (a pipe, a device such as /dev/zero) once more
/// than `limit` bytes have come, so no input can fill the memory or keep the tool reading.
public enum InputFile {
    public static func contents(_ path: String, limit: Int, kind: String) throws(ToolError) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .badFile("\(path): cannot read the file") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { throw .badFile("\(path): cannot read the file") }
        let tooLarge = ToolError.badFile("\(path): too large for \(kind); allowed: at most \(limit) bytes (\(limit >> 20) MiB)")
        if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > limit { throw tooLarge }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .badFile("\(path): cannot read the file") }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
            if bytes.count > limit { throw tooLarge }
        }
    }
}
