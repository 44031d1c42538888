import EmulatorMath
import Foundation
import HCITransport
@testable import ReflectorTools
@testable import Captures
import TestSupport
import Testing

/// `CaptureFile` reads a capture from disk record by record and must read exactly what
/// `BTSnoopReader.parse` reads from the whole file in memory: the same procedures and the
/// same problems at the same offsets, for cut files and for corrupted ones.
struct CaptureFileTests {
    static func same(_ bytes: [UInt8], in dir: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = dir.file("c.btsnoop")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fromDisk = try CaptureFile.read(path: path, defaultRole: .initiator)
        let inMemory = CaptureProcedures(bytes: bytes, defaultRole: .initiator)
        #expect(fromDisk.procedures == inMemory.procedures, sourceLocation: sourceLocation)
        #expect(fromDisk.problems == inMemory.problems, "\(bytes.count) bytes", sourceLocation: sourceLocation)
    }

    @Test func cutCapturesReadAlike() throws {
        let whole = EstimateCommandTests.bytes(EstimateCommandTests.ipt.initiator)
        let offsets = EstimateCommandTests.recordOffsets(whole)
        var lengths = Set(stride(from: 0, through: whole.count, by: 97))
        for o in offsets { lengths.formUnion([o - 1, o, o + 1, o + 23, o + 24, o + 25].filter { (0...whole.count).contains($0) }) }
        try TemporaryDirectory.with("capture-cut") { dir in
            for n in lengths.sorted() { try Self.same(Array(whole.prefix(n)), in: dir) }
        }
    }

    @Test func corruptedCapturesReadAlike() throws {
        let whole = EstimateCommandTests.bytes(EstimateCommandTests.ipt.initiator)
        var g = SplitMix64(seed: 11)
        try TemporaryDirectory.with("capture-flip") { dir in
            for _ in 0..<150 {
                var bytes = whole
                for _ in 0..<(1 + g.below(3)) { bytes[g.below(min(bytes.count, 600))] = g.byte() }
                try Self.same(bytes, in: dir)
            }
        }
    }
}
