@testable import ReflectorTools
@testable import ToolJSON
import Testing

/// A command's output: JSON of any length through its buffer (ToolJSONTests has the writer's own tests).
struct CommandOutputTests {
    /// A document longer than the buffer goes to the sink as it is written.
    @Test func longDocumentsStream() {
        let sink = MemorySink()
        let out = CommandOutput(sink: sink)
        out.json { j in
            j.beginArray()
            for i in 0..<50_000 {
                j.value(i)
                j.flushIfFull()
            }
            j.endArray()
        }
        #expect(!sink.bytes.isEmpty)
        out.flush()
        #expect(sink.bytes.count == CommandTesting.json { j in j.array { j in for i in 0..<50_000 { j.value(i) } } }.utf8.count)
    }
}
