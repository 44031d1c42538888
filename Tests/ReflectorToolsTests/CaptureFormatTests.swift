import Foundation
import HCITransport
@testable import ReflectorFirmware
@testable import ReflectorTools
@testable import Captures
@testable import CaptureEstimation
import TestSupport
import Testing

/// Capture formats other than btsnoop 1001/1002, chosen by content: btsnoop 2001 (Linux
/// monitor), pcap (both byte orders, micro- and nanoseconds; link types 187, 201, 254) and
/// pcapng (several interfaces and link types). Files written by Wireshark's own tools
/// (`editcap`, `mergecap`) from btsnoop captures this project wrote must give the btsnoop's
/// distances exactly, for every estimator.
struct CaptureFormatTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory("capture-formats") }

    static let noIPT = EstimateCommandTests.loopback(inlinePCT: false, procedures: 4)
    static let initiator = EstimateCommandTests.bytes(noIPT.initiator)
    static let reflector = EstimateCommandTests.bytes(noIPT.reflector)

    /// Runs a Wireshark tool (installed by `scripts/ensure-deps` from `wireshark-common`).
    func wireshark(_ tool: String, _ arguments: [String]) throws {
        let url = URL(fileURLWithPath: "/usr/bin/\(tool)")
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "\(tool) missing: run scripts/ensure-deps")
        let r = try ToolProcess.run(url, arguments, timeout: 60)
        try #require(r.status == 0, "\(tool) \(arguments): \(r.stderr)")
    }

    func estimates(_ path: String, reflector: String? = nil, _ estimator: EstimatorChoice = .ml) throws -> [String] {
        let run = try EstimateCommand.run([path] + (reflector.map { ["--reflector", $0] } ?? []) + ["--json", "--estimator", estimator.rawValue])
        #expect(run.message == nil, "\(path): \(run.message ?? "")")
        return run.lines
    }

    /// The packets of a btsnoop 1002 capture, as another format carries them.
    static func packets(_ bytes: [UInt8], adapter: UInt16 = 0) -> [CapturedPacket] {
        let parsed = BTSnoopReader.parse(bytes)
        return parsed.records.map {
            CapturedPacket(packet: $0.packet, direction: $0.direction, adapter: adapter, unixMicroseconds: $0.timestamp.unixMicroseconds, offset: 0)
        }
    }

    @Test func wiresharkConversionsGiveTheBtsnoopsDistances() throws {
        let ini = try dir.write(Self.initiator, name: "ini.btsnoop"), ref = try dir.write(Self.reflector, name: "ref.btsnoop")
        var files: [(String, String, CaptureFormat)] = []
        for (format, ext) in [("pcap", "pcap"), ("nsecpcap", "nsec.pcap"), ("pcapng", "pcapng")] {
            let i = dir.file("ini.\(ext)"), r = dir.file("ref.\(ext)")
            try wireshark("editcap", ["-F", format, ini, i])
            try wireshark("editcap", ["-F", format, ref, r])
            files.append((i, r, format == "pcapng" ? .pcapng : .pcap))
        }
        // Link type 187 (no direction): the same packets with the H4 encapsulation forced.
        let i187 = dir.file("ini-187.pcap"), r187 = dir.file("ref-187.pcap")
        try wireshark("editcap", ["-F", "pcap", "-T", "bluetooth-h4", ini, i187])
        try wireshark("editcap", ["-F", "pcap", "-T", "bluetooth-h4", ref, r187])
        files.append((i187, r187, .pcap))
        // Link type 254: this project's btsnoop 2001 files, converted by Wireshark to pcap.
        let i2001 = try dir.write(MonitorBTSnoopReader.encode(Self.packets(Self.initiator, adapter: 0)), name: "ini-2001.btsnoop")
        let r2001 = try dir.write(MonitorBTSnoopReader.encode(Self.packets(Self.reflector, adapter: 1)), name: "ref-2001.btsnoop")
        files.append((i2001, r2001, .btsnoopMonitor))
        let i254 = dir.file("ini-254.pcap"), r254 = dir.file("ref-254.pcap")
        try wireshark("editcap", ["-F", "pcap", i2001, i254])
        try wireshark("editcap", ["-F", "pcap", r2001, r254])
        files.append((i254, r254, .pcap))
        let linkTypes = try [i254, i187, files[0].0].map { path in
            let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            return UInt32(b[20]) | UInt32(b[21]) << 8
        }
        #expect(linkTypes == [254, 187, 201])

        for estimator in EstimatorChoice.phaseBased {
            let expected = try estimates(ini, reflector: ref, estimator)
            #expect(expected.count == 4 && !expected.contains { $0.contains("\"distance_m\": null") }, "\(expected)")
            for (i, r, format) in files {
                #expect(CaptureFormat([UInt8](try Data(contentsOf: URL(fileURLWithPath: i)))) == format, "\(i)")
                #expect(try estimates(i, reflector: r, estimator) == expected, "\(i) \(estimator)")
            }
        }
    }

    /// Both sides in one pcapng, two interfaces of different link types (201 and 254), merged
    /// by Wireshark's `mergecap`: the file pairs with itself, as `--reflector` pairs two files.
    @Test func mergedPcapngOfBothSidesPairsWithItself() throws {
        let ini = try dir.write(Self.initiator, name: "ini.btsnoop")
        let r2001 = try dir.write(MonitorBTSnoopReader.encode(Self.packets(Self.reflector, adapter: 0)), name: "ref-2001.btsnoop")
        let ref = try dir.write(Self.reflector, name: "ref.btsnoop")
        let merged = dir.file("both.pcapng")
        try wireshark("mergecap", ["-F", "pcapng", "-w", merged, ini, r2001])
        let both = CaptureReader.read(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: merged))), defaultRole: .initiator)
        #expect(both.problems.isEmpty)
        #expect(both.procedures.filter { $0.role == .initiator }.count == 4)
        #expect(both.procedures.filter { $0.role == .reflector }.count == 4)
        for estimator in EstimatorChoice.phaseBased {
            #expect(try estimates(merged, estimator) == (try estimates(ini, reflector: ref, estimator)))
        }
    }

    /// This project's own writers: big-endian pcap (nanoseconds), pcapng big-endian with two
    /// interfaces, each read back to the same packets.
    @Test func bothByteOrdersAndSeveralInterfacesReadBack() throws {
        let packets = Self.packets(Self.initiator)
        for big in [false, true] {
            for nano in [false, true] {
                for type in BluetoothLinkType.allCases {
                    let file = PcapReader.encode(packets, linkType: type, bigEndian: big, nanoseconds: nano)
                    let read = PcapReader.parse(file)
                    #expect(read.error == nil)
                    #expect(read.packets.map(\.packet) == packets.map(\.packet), "\(type) big \(big) nano \(nano)")
                    #expect(read.packets.map(\.unixMicroseconds) == packets.map(\.unixMicroseconds))
                    #expect(read.packets.map(\.direction) == packets.map { type == .h4 ? nil : $0.direction })
                }
            }
            var two = packets
            for k in two.indices where k % 2 == 1 { two[k].adapter = 1 }
            let file = PcapngReader.encode(two, linkTypes: [.h4WithPseudoHeader, .linuxMonitor], bigEndian: big)
            let read = PcapngReader.parse(file)
            #expect(read.error == nil)
            #expect(read.packets.map(\.packet) == packets.map(\.packet))
            #expect(read.packets.map(\.adapter) == two.map { $0.adapter == 1 ? 256 : 0 })
        }
    }

    // MARK: Cut and garbled files

    @Test func truncatedAndGarbledFilesNameTheOffset() throws {
        let ini = try dir.write(Self.initiator, name: "ini.btsnoop")
        let pcap = dir.file("ini.pcap"), pcapng = dir.file("ini.pcapng")
        try wireshark("editcap", ["-F", "pcap", ini, pcap])
        try wireshark("editcap", ["-F", "pcapng", ini, pcapng])
        let monitor = MonitorBTSnoopReader.encode(Self.packets(Self.initiator))
        for (name, bytes) in [("pcap", try Data(contentsOf: URL(fileURLWithPath: pcap))), ("pcapng", try Data(contentsOf: URL(fileURLWithPath: pcapng))),
                              ("2001", Data(monitor))] {
            let whole = [UInt8](bytes)
            let full = CaptureReader.read(bytes: whole, defaultRole: .initiator)
            #expect(full.problems.isEmpty && full.procedures.count == 4, "\(name)")
            // Cut 10 octets into the record after the one that completes procedure 2.
            let third = full.procedures[2].offset
            let packets = CaptureReader.packetCapture(whole)
            let next = try #require(packets?.packets.first { $0.offset > third }?.offset)
            let cut = Array(whole[..<(next + 10)])
            let c = CaptureReader.read(bytes: cut, defaultRole: .initiator)
            #expect(c.procedures.count == 3, "\(name)")
            #expect(c.problems.map(\.offset) == [next], "\(name): \(c.problems)")
            #expect(c.problems.first?.message.contains("cut short") == true, "\(name): \(c.problems)")
            let path = try dir.write(cut, name: "cut-\(name)")
            let run = try EstimateCommand.run([path])
            #expect(run.status == 2)
            #expect(run.lines.count == 3)
            #expect(run.message?.hasPrefix("\(path): byte offset \(next): ") == true, "\(run.message ?? "")")
            #expect(run.message?.hasSuffix("; 3 procedures before it") == true, "\(run.message ?? "")")
            // Garbage in a record's length: named at that record.
            var garbled = whole
            for k in 4..<8 { garbled[next + (name == "pcap" ? 8 : 4) + k - 4] = 0xFF }
            let g = CaptureReader.read(bytes: garbled, defaultRole: .initiator)
            #expect(g.problems.map(\.offset) == [next], "\(name): \(g.problems)")
            #expect(g.procedures.count == 3)
        }
        // Headers that are not what they say.
        #expect(PcapReader.parse([0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0]).error?.description == "byte offset 0: pcap file header cut short (8 of 24 octets)")
        var ethernet = PcapReader.encode([], linkType: .h4)
        ethernet[20] = 1
        #expect(PcapReader.parse(ethernet).error?.message.hasPrefix("pcap link type 1 is not Bluetooth HCI") == true)
        #expect(PcapngReader.parse([0x0A, 0x0D, 0x0D, 0x0A, 0, 0, 0, 0, 1, 2, 3, 4]).error?.message == "section header block without the byte-order magic 0x1A2B3C4D")
        #expect(MonitorBTSnoopReader.parse(Array(Self.initiator)).error?.message == "btsnoop datalink 1002 is not the Linux monitor's (2001)")
    }

    /// A pipe is read once: the octets looked at to choose the format are given back, so a
    /// btsnoop (streamed) or a pcap (read whole) through a FIFO reads as the file does.
    @Test func aPipeReadsAsTheFile() throws {
        let ini = try dir.write(Self.initiator, name: "ini.btsnoop")
        let pcap = dir.file("ini.pcap")
        try wireshark("editcap", ["-F", "pcap", ini, pcap])
        for file in [ini, pcap] {
            let fifo = dir.file("fifo-\(UUID().uuidString)")
            try #require(mkfifo(fifo, 0o600) == 0)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            let writer = Thread {
                if let h = FileHandle(forWritingAtPath: fifo) { h.write(bytes); try? h.close() }
            }
            writer.start()
            let piped = try EstimateCommand.run([fifo])
            #expect(piped.message == nil, "\(piped.message ?? "")")
            #expect(piped.output == (try EstimateCommand.run([file]).output) && piped.lines.count == 4)
        }
    }
}
