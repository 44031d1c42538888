import HCITransport

/// The capture formats other than btsnoop 1001/1002 (HCITransport's `PcapReader`,
/// `PcapngReader`, `MonitorBTSnoopReader`), each on its own, then as `reflector-emu estimate`
/// reads them (procedures and distances, through `CaptureCalls`).
///
/// Input: the file. Checks: the error's offset lies inside the file and after every packet's;
/// packets are in file order; re-reading the file cut at the error's offset gives the same
/// packets (nothing after the bad spot was used); one estimate per procedure.
enum PacketCaptureTargets {
    static let pcap = FuzzTarget("pcap", "PcapReader: pcap files of Bluetooth HCI (187, 201, 254), then estimate", seeds: pcapSeeds) { bytes in
        check(bytes, PcapReader.parse)
    }

    static let pcapng = FuzzTarget("pcapng", "PcapngReader: pcapng files with Bluetooth HCI interfaces, then estimate", seeds: pcapngSeeds) { bytes in
        check(bytes, PcapngReader.parse)
    }

    static let monitor = FuzzTarget("btsnoop-monitor", "MonitorBTSnoopReader: btsnoop files of datalink 2001 (btmon), then estimate", seeds: monitorSeeds) { bytes in
        check(bytes, MonitorBTSnoopReader.parse)
    }

    static func check(_ bytes: [UInt8], _ parse: ([UInt8]) -> PacketCapture) {
        let read = parse(bytes)
        let offsets = read.packets.map(\.offset)
        require(offsets == offsets.sorted(), "packets out of file order")
        require(offsets.allSatisfy { $0 >= 0 && $0 < bytes.count }, "a packet outside the file")
        if let e = read.error {
            require(e.offset >= 0 && e.offset <= bytes.count, "error offset \(e.offset) outside the file")
            require(offsets.allSatisfy { $0 < e.offset } || e.offset == 0, "a packet after the error")
            if e.offset > 0 {
                let prefix = parse(Array(bytes.prefix(e.offset)))
                require(prefix.packets == read.packets, "the part before the error does not read alone")
            }
        }
        let estimate = CaptureCalls.estimate(anyCapture: bytes)
        require(estimate.estimates == estimate.procedureOffsets.count || estimate.bothSides, "not one estimate per procedure")
    }

    static func packets() -> [CapturedPacket] {
        guard let traffic = SeedTraffic.loopbacks.first else { return [] }
        return traffic.initiatorCapture.prefix(60).map {
            CapturedPacket(packet: $0.packet, direction: $0.direction, unixMicroseconds: $0.timestamp.unixMicroseconds, offset: 0)
        }
    }

    static func pcapSeeds() -> [[UInt8]] {
        let p = packets()
        return BluetoothLinkType.allCases.flatMap { t in
            [PcapReader.encode(p, linkType: t), PcapReader.encode(Array(p.prefix(10)), linkType: t, bigEndian: true, nanoseconds: true)]
        }
    }

    static func pcapngSeeds() -> [[UInt8]] {
        var two = packets()
        for k in two.indices where k % 3 == 0 { two[k].adapter = 1 }
        return [PcapngReader.encode(packets(), linkTypes: [.h4WithPseudoHeader]),
                PcapngReader.encode(two, linkTypes: [.h4, .linuxMonitor], bigEndian: true)]
    }

    static func monitorSeeds() -> [[UInt8]] { [MonitorBTSnoopReader.encode(packets())] }
}
