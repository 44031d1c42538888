import Foundation
import ToolJSON

/// Writes to a file descriptor, all of each buffer (retrying after EINTR and short writes);
/// a descriptor that fails (a closed pipe) is given up on silently.
public final class FileDescriptorSink: ByteSink {
    public let descriptor: Int32
    private var failed = false

    public init(_ descriptor: Int32) { self.descriptor = descriptor }

    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard !failed, let start = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(descriptor, start + offset, bytes.count - offset)
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                failed = true
                return
            }
        }
    }
}

/// Keeps everything written, for tests and for callers that want the text.
public final class MemorySink: ByteSink {
    public private(set) var bytes: [UInt8] = []
    public init() {}
    public func write(_ bytes: UnsafeRawBufferPointer) { self.bytes += bytes }
}

/// A command's standard output: text lines and JSON Lines records into one buffer, flushed
/// to the sink when it fills, after each line when the sink is a terminal (so a person sees
/// each line as it comes), on `flush()`, and at the end of the command.
public final class CommandOutput {
    public let sink: any ByteSink
    /// Whether every line is flushed at once (a terminal, or a line a peer waits for).
    public var flushesEachLine: Bool
    private let pending = ByteBuffer(capacity: JSONWriter.flushThreshold + 4096)

    public init(sink: any ByteSink, flushesEachLine: Bool = false) {
        self.sink = sink
        self.flushesEachLine = flushesEachLine
    }

    /// Standard output, flushed line by line when it is a terminal.
    public static func standardOutput() -> CommandOutput {
        CommandOutput(sink: FileDescriptorSink(STDOUT_FILENO), flushesEachLine: isatty(STDOUT_FILENO) != 0)
    }

    /// Output kept in memory; `text` reads it.
    public static func memory() -> CommandOutput { CommandOutput(sink: MemorySink()) }

    /// Everything written so far, for an output in memory (after a flush).
    public var text: String {
        flush()
        return String(decoding: (sink as? MemorySink)?.bytes ?? [], as: UTF8.self)
    }

    /// `s` as it is.
    public func write(_ s: String) {
        pending.append(s.utf8)
        afterWrite()
    }

    /// `s` and a newline.
    public func line(_ s: String) {
        pending.append(s.utf8)
        pending.append(CollectionOfOne(UInt8(ascii: "\n")))
        afterWrite()
    }

    /// One JSON Lines record: `body` writes one value, then a newline ends it.
    public func jsonLine(style: JSONWriter.Style = .spaced, _ body: (inout JSONWriter) -> Void) {
        json(style: style) { w in
            body(&w)
            w.newline()
        }
    }

    /// JSON of any length written through the output's buffer: `body` may call
    /// `flushIfFull()` between parts of a long document to keep memory bounded.
    public func json(style: JSONWriter.Style = .spaced, _ body: (inout JSONWriter) -> Void) {
        var w = JSONWriter(style: style, buffer: pending, sink: sink)
        body(&w)
        w.commit()
        afterWrite()
    }

    private func afterWrite() {
        if flushesEachLine || pending.count >= JSONWriter.flushThreshold { flush() }
    }

    public func flush() {
        guard pending.count > 0 else { return }
        sink.write(pending.raw)
        pending.count = 0
    }
}
