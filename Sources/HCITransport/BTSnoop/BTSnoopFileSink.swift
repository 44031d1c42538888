import Foundation

/// Writes a btsnoop capture to a file as packets happen: the thin I/O edge around the pure
/// `BTSnoopWriter` (in the spirit of swift-system: the OS call stays here, the format logic is
/// tested without it).
///
/// Each `append` encodes one record and writes it straight to the `FileHandle`, so a capture cut
/// short by a crash loses at most the record being written, and `BTSnoopReader` still returns
/// everything before it. Not thread-safe: use one sink from one task or actor.
public final class BTSnoopFileSink {
    public let writer: BTSnoopWriter
    private let handle: FileHandle

    /// Writes to an open handle, at its current position.
    ///
    /// - Parameter writeHeader: `true` for a new file; `false` to keep appending records to a
    ///   capture that already has its header (same datalink).
    public init(handle: FileHandle, writer: BTSnoopWriter = BTSnoopWriter(), writeHeader: Bool = true) throws {
        self.writer = writer
        self.handle = handle
        if writeHeader { try handle.write(contentsOf: writer.header) }
    }

    /// Creates (or truncates) the file at `path` and writes the header.
    public convenience init(creatingFileAtPath path: String, writer: BTSnoopWriter = BTSnoopWriter()) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path)
        else { throw BTSnoopFileError.cannotCreate(path: path) }
        try self.init(handle: handle, writer: writer, writeHeader: true)
    }

    /// Encodes and writes one record.
    public func append(_ record: BTSnoopRecord) throws {
        try handle.write(contentsOf: writer.encode(record))
    }

    /// The wall-clock time as a btsnoop timestamp, for live captures. The only place this module
    /// reads a clock; loopback captures use `BTSnoopTimestamp(virtualMicroseconds:)` instead.
    public static func wallClockTimestamp() -> BTSnoopTimestamp {
        BTSnoopTimestamp(unixMicroseconds: Int64((Date().timeIntervalSince1970 * 1_000_000).rounded()))
    }

    /// Flushes to storage and closes the file.
    public func close() throws {
        try handle.synchronize()
        try handle.close()
    }
}
