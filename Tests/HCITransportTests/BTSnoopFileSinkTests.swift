import Foundation
import Testing
@testable import HCITransport
import TestSupport

struct BTSnoopFileSinkTests {
    @Test func sinkWritesWhatTheReaderReadsBack() throws {
        let directory = try TemporaryDirectory("btsnoop-sink")
        let path = directory.file("capture.btsnoop")
        let records = try BTSnoopReaderTests.records() + BTSnoopReaderTests.h4Only()
        let sink = try BTSnoopFileSink(creatingFileAtPath: path)
        for record in records { try sink.append(record) }
        try sink.close()

        #expect(FileManager.default.contents(atPath: path).map([UInt8].init) == (try BTSnoopWriter().encodeFile(records)))
        let result = try BTSnoopReader.parseFile(atPath: path)
        #expect(result.error == nil)
        #expect(result.records == records)

        // A by-hand check with external tools: HCITRANSPORT_SAMPLE_BTSNOOP=/tmp/x.btsnoop swift test …
        if let sample = ProcessInfo.processInfo.environment["HCITRANSPORT_SAMPLE_BTSNOOP"] {
            try? FileManager.default.removeItem(atPath: sample)
            try FileManager.default.copyItem(atPath: path, toPath: sample)
            let h1 = try BTSnoopWriter(datalink: .hciUnencapsulated).encodeFile(BTSnoopReaderTests.records())
            #expect(FileManager.default.createFile(atPath: sample + ".h1", contents: Data(h1)))
        }
        withExtendedLifetime(directory) {}
    }

    @Test func missingFileIsATypedError() {
        #expect(throws: BTSnoopFileError.cannotRead(path: "/nonexistent/x.btsnoop")) {
            try BTSnoopReader.parseFile(atPath: "/nonexistent/x.btsnoop")
        }
    }
}
