import BLEHost
import RadioWorld
import ReflectorFirmware
import VirtualBoard

/// Two virtual boards in one air (`BoardAir`), fed what two host stacks send them: HCI commands
/// and ACL packets for either board, and the passing of time (advertising, connecting,
/// encryption, data, CS procedures between the boards happen as the commands lead them).
///
/// Input: records `tag | length (2 octets, LE) | octets`: tag % 4 = 0 a command for board A,
/// 1 a command for board B, 2 an ACL packet (the first octet: bit 0 the board, bits 1–2 the
/// packet boundary flag; the rest the data), 3 time moves on by (1 + the first two octets,
/// LE) × 100 µs.
///
/// Checks, after every record: each event a board gives its host is a well-formed HCI event
/// (re-encoding to its bytes); each ACL packet it gives is for its connection handle with at
/// most 251 octets; every command of at least two octets is answered by a Command Complete or
/// Command Status for its opcode.
enum BoardAirTarget {
    static let target = FuzzTarget("board", "BoardAir: two virtual boards' link layers fed two hosts' commands, ACL data and time",
                                   seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        var air = makeAir()
        var now: UInt64 = 0
        for (tag, octets) in input.records() {
            var answered: (board: Int, opcode: UInt16)?
            switch tag % 4 {
            case 0, 1:
                let board = Int(tag % 2)
                guard let packet = try? HCIPacket(command: octets) else {
                    // Not a whole command packet: what a controller's framer would never pass on.
                    continue
                }
                air.receive(packet, on: board)
                if let op = packet.opcode { answered = (board, op) }
            case 2:
                let first = octets.first ?? 0
                if let packet = try? HCIPacket.acl(handle: BoardController.connectionHandle, packetBoundary: first >> 1 & 0b11,
                                                   data: Array(octets.dropFirst().prefix(BoardController.aclBufferLength))) {
                    air.receive(packet, on: Int(first & 1))
                }
            default:
                let steps = UInt64(octets.first ?? 0) | UInt64(octets.dropFirst().first ?? 0) << 8
                now += (1 + steps) * 100
            }
            let out = air.poll(now: now)
            for board in 0..<2 { check(out[board]) }
            if let (board, op) = answered {
                require(out[board].contains { answers($0, op) }, "command 0x\(String(op, radix: 16)) to board \(board) got no Command Complete or Status")
            }
        }
    }

    static func makeAir() -> BoardAir {
        BoardAir(BoardController(capabilities: .projectReflector(antennas: 1), address: 0xC0FF_EE00_00A0, seed: 1),
                 BoardController(capabilities: .projectReflector(antennas: 1), address: 0xC0FF_EE00_00B0, seed: 2),
                 scenario: AirScenario(seed: 1, geometry: AirGeometry(distance: 2), channelModel: .freeSpace, snrDB: 30))
    }

    static func check(_ packets: [HCIPacket]) {
        for p in packets {
            switch p.indicator {
            case .event:
                guard let e = try? HCIPacket(event: p.bytes) else { return require(false, "an event that does not parse: \(p.bytes.prefix(8))") }
                require(e.encode() == p.bytes, "an event that does not re-encode to its bytes")
            case .aclData:
                require(p.aclHandle == BoardController.connectionHandle && p.parameters.count <= BoardController.aclBufferLength,
                        "an ACL packet for handle \(String(describing: p.aclHandle)) with \(p.parameters.count) octets")
            default:
                require(false, "a board sent its host a \(p.indicator) packet")
            }
        }
    }

    /// Command Complete (opcode at parameters 1–2) or Command Status (2–3) for `opcode`.
    static func answers(_ event: HCIPacket, _ opcode: UInt16) -> Bool { ControllerTarget.answers(event, opcode) }

    /// Two hosts' sessions: B advertises (legacy and extended), A scans and connects, encrypts,
    /// sends ACL both ways, updates the data length, reads features, disconnects; and every
    /// command the loopback hosts sent, to either board.
    static func seeds() -> [[UInt8]] {
        func command<C: HCICommand>(_ board: UInt8, _ c: C) -> (tag: UInt8, octets: [UInt8]) { (board, c.packet.bytes) }
        let wait: (tag: UInt8, octets: [UInt8]) = (3, [0xF4, 0x01])  // 50 ms
        let h = BoardController.connectionHandle
        let key = [UInt8](0..<16)
        let masks: [(tag: UInt8, octets: [UInt8])] = [0, 1].flatMap { b -> [(tag: UInt8, octets: [UInt8])] in
            [(b, HCIPacket(opcode: HCIOpcode.setEventMask, parameters: [UInt8](repeating: 0xFF, count: 8)).bytes),
             (b, HCIPacket(opcode: HCIOpcode.leSetEventMask, parameters: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]).bytes)]
        }
        let legacy: [(tag: UInt8, octets: [UInt8])] = masks + [
            command(1, LESetAdvertisingParameters(intervalMin: 0x20, intervalMax: 0x20)),
            command(1, LESetAdvertisingData(data: [0x02, 0x01, 0x06, 0x03, 0x03, 0x5B, 0x18])),
            command(1, LESetScanResponseData(data: [0x05, 0x09, 0x74, 0x65, 0x73, 0x74])),
            command(1, LESetAdvertisingEnable(enable: true)),
            command(0, LESetScanParameters(active: true)),
            command(0, LESetScanEnable(enable: true, filterDuplicates: true)), wait,
            command(0, LESetScanEnable(enable: false, filterDuplicates: false)),
            command(0, LECreateConnection(peerAddress: 0xC0FF_EE00_00B0)), wait,
            command(0, LEEnableEncryption(connectionHandle: h, longTermKey: key)),
            command(1, LELongTermKeyRequestReply(connectionHandle: h, longTermKey: key)), wait,
            (2, [0b000] + [UInt8](repeating: 0xA5, count: 100)), (2, [0b011, 1, 2, 3]),
            command(0, LESetDataLength(connectionHandle: h, txOctets: 251, txTime: 2120)),
            command(1, LEReadRemoteFeatures(connectionHandle: h)),
            command(0, LEEnableEncryption(connectionHandle: h, longTermKey: key)),
            command(1, LELongTermKeyRequestReply(connectionHandle: h, longTermKey: key)), wait,
            command(1, Disconnect(connectionHandle: h, reason: .remoteUserTerminatedConnection)), wait,
        ]
        let extended: [(tag: UInt8, octets: [UInt8])] = masks + [
            command(1, LESetExtendedAdvertisingParameters(advertisingHandle: 1, eventProperties: 0x01, intervalMin: 0x20, intervalMax: 0x20)),
            command(1, LESetExtendedAdvertisingData(advertisingHandle: 1, operation: 3, fragmentPreference: 0, data: [UInt8](repeating: 7, count: 240))),
            command(1, LESetExtendedAdvertisingEnable(enable: true, sets: [.init(handle: 1)])),
            command(0, LESetExtendedScanEnable(enable: true)), wait,
            command(0, LEExtendedCreateConnection(peerAddress: 0xC0FF_EE00_00B0)), wait,
            command(0, LEEnableEncryption(connectionHandle: h, longTermKey: key)),
            command(1, LELongTermKeyRequestReply(connectionHandle: h, longTermKey: [UInt8](repeating: 9, count: 16))),
            (3, [0xFF, 0xFF]), (3, [0xFF, 0xFF]),
        ]
        var out = [FuzzInput.records(legacy), FuzzInput.records(extended)]
        for c in Set(SeedTraffic.loopbacks.flatMap(\.commands)).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let both: [(tag: UInt8, octets: [UInt8])] = [(0, c), (1, c)]
            out.append(FuzzInput.records(Array(legacy.prefix(14)) + both))
        }
        return out
    }
}
