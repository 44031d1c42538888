import FirmwareHarness
import Foundation
import ReflectorFirmware

/// The Linux side of scripts/firmware-test.
///
///     firmware-vectors run < VECTOR > OUTPUT    the frames the firmware test image would send
///     firmware-vectors generate DIR             writes the committed vector set
let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "run":
    let input = FileHandle.standardInput.readDataToEndOfFile()
    var session = HarnessSession()
    var sink = ByteSink()
    var meter = NoMeter()
    for byte in input {
        session.receive(byte, sink: &sink, meter: &meter)
        if session.isDone { break }
    }
    FileHandle.standardOutput.write(Data(sink.bytes))
    exit(session.isDone ? 0 : 1)
case "generate":
    guard arguments.count == 2, let dir = arguments.last else {
        FileHandle.standardError.write(Data("usage: firmware-vectors generate DIR\n".utf8))
        exit(2)
    }
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    for vector in VectorSet.all {
        try Data(vector.bytes).write(to: URL(fileURLWithPath: dir).appendingPathComponent(vector.name + ".bin"))
    }
    print("wrote \(VectorSet.all.count) vectors to \(dir)")
default:
    FileHandle.standardError.write(Data("usage: firmware-vectors run < VECTOR > OUTPUT | firmware-vectors generate DIR\n".utf8))
    exit(2)
}
