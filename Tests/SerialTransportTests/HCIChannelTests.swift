import ReflectorFirmware
import HCITransport
import Testing
@testable import SerialTransport

/// H4 over a real pty pair: a virtual board (the master) and a host (a TerminalDevice on the
/// replica), with an injected clock for the stall timer and the capture timestamps.
struct HCIChannelTests {
    /// A pty pair with a channel on each end; `close()` closes both links.
    final class Pair {
        let pty: PseudoTerminal
        let client: TerminalDevice
        let board: HCIChannel
        let host: HCIChannel
        let clock = ManualClock()

        init(stallTimeoutMilliseconds: Int = 1000) throws {
            pty = try PseudoTerminal()
            do {
                client = try TerminalDevice(path: pty.replicaPath)
            } catch {
                pty.close()
                throw error
            }
            board = HCIChannel(link: pty, side: .controller, stallTimeoutMilliseconds: stallTimeoutMilliseconds, clock: clock.channelClock)
            host = HCIChannel(link: client, side: .host, stallTimeoutMilliseconds: stallTimeoutMilliseconds, clock: clock.channelClock)
        }

        func close() {
            client.close()
            pty.close()
        }
    }

    static func packets() throws -> [HCIPacket] {
        [
            try HCIPacket.command(opcode: HCIOpcode.reset),
            try HCIPacket.command(opcode: HCIOpcode.leCSReadLocalSupportedCapabilities, parameters: [0x0A, 0x0D, 0x11, 0x13]),
            try HCIPacket.event(code: 0x0E, parameters: [0x01, 0x03, 0x0C, 0x00]),
            try HCIPacket.acl(handle: 0x0040, data: pattern(1000)),
            try HCIPacket.event(code: 0x3E, parameters: pattern(255, seed: 9)),
        ]
    }

    @Test func packetsSentWholeArriveWhole() throws {
        let pair = try Pair()
        defer { pair.close() }
        let packets = try Self.packets()
        for p in packets { try pair.host.send(p) }
        for p in packets { #expect(try pair.board.receive(timeout: 2000) == p) }
        for p in packets { try pair.board.send(p) }
        for p in packets { #expect(try pair.host.receive(timeout: 2000) == p) }
        #expect(pair.host.statistics.packetsSent == packets.count && pair.host.statistics.packetsReceived == packets.count)
    }

    /// The same stream written in different splits (one octet per write with a receive attempt
    /// in between, fixed chunks, everything at once) gives the same packets.
    @Test(arguments: [1, 2, 3, 7, 64, 100_000])
    func packetsArriveWholeInEverySplit(chunk: Int) throws {
        let pair = try Pair()
        defer { pair.close() }
        let packets = try Self.packets()
        let stream = packets.flatMap(\.h4Bytes)
        var received: [HCIPacket] = []
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + chunk)
            try pair.client.write(Array(stream[offset..<end]))
            offset = end
            if chunk < 8, let p = try? pair.board.receive(timeout: 0) { received.append(p) }
        }
        while received.count < packets.count { received.append(try pair.board.receive(timeout: 2000)) }
        #expect(received == packets)
        #expect(pair.board.statistics.skippedOctets == 0 && pair.board.statistics.droppedPartialPackets == 0)
    }

    @Test func aGarbageBurstIsSkippedAndCounted() throws {
        let pair = try Pair()
        defer { pair.close() }
        var seen: [HCIChannelDiagnostic] = []
        pair.board.diagnostics = { seen.append($0) }
        let reset = try HCIPacket.command(opcode: HCIOpcode.reset)
        let garbage: [UInt8] = [0x00, 0x00, 0xFF, 0x7E, 0x06]
        try pair.client.write(garbage + reset.h4Bytes)
        #expect(try pair.board.receive(timeout: 2000) == reset)
        #expect(pair.board.statistics.skippedOctets == garbage.count)
        #expect(pair.board.statistics.framingErrors == garbage.count)
        #expect(seen.first == .framingError(.unknownIndicator(byte: 0x00, offset: 0)))
        #expect(seen.count == garbage.count)
    }

    /// A packet cut short (a board reset mid-event) is dropped once the injected clock passes
    /// the stall timeout, and the next packet is read whole.
    @Test func aStalledPartialPacketIsDroppedOnTheNextOctets() throws {
        let pair = try Pair(stallTimeoutMilliseconds: 500)
        defer { pair.close() }
        var seen: [HCIChannelDiagnostic] = []
        pair.host.diagnostics = { seen.append($0) }
        let complete = try HCIPacket.event(code: 0x0E, parameters: [0x01, 0x03, 0x0C, 0x00])
        try pair.pty.write(Array(complete.h4Bytes.prefix(4)))
        #expect(throws: SerialError.timeout(milliseconds: 20)) { try pair.host.receive(timeout: 20) }
        #expect(pair.host.statistics.droppedPartialPackets == 0)

        pair.clock.milliseconds += 500
        try pair.pty.write(complete.h4Bytes)
        #expect(try pair.host.receive(timeout: 2000) == complete)
        #expect(pair.host.statistics.droppedPartialPackets == 1 && pair.host.statistics.droppedPartialOctets == 4)
        #expect(seen == [.stalledPartialPacketDropped(octets: 4, offset: 0)])
    }

    /// A stall is also noticed when no more octets come: on the receive timeout.
    @Test func aStalledPartialPacketIsDroppedOnATimeout() throws {
        let pair = try Pair(stallTimeoutMilliseconds: 500)
        defer { pair.close() }
        try pair.pty.write([0x04, 0x0E])
        #expect(throws: SerialError.timeout(milliseconds: 10)) { try pair.host.receive(timeout: 10) }
        pair.clock.milliseconds += 499
        #expect(throws: SerialError.timeout(milliseconds: 10)) { try pair.host.receive(timeout: 10) }
        #expect(pair.host.statistics.droppedPartialPackets == 0)
        pair.clock.milliseconds += 1
        #expect(throws: SerialError.timeout(milliseconds: 10)) { try pair.host.receive(timeout: 10) }
        #expect(pair.host.statistics.droppedPartialPackets == 1)
        let reset = try HCIPacket.command(opcode: HCIOpcode.reset)
        try pair.pty.write(reset.h4Bytes)
        #expect(try pair.host.receive(timeout: 2000) == reset)
    }

    /// Both ends record: the host's capture and the board's capture agree on directions (the
    /// command host→controller with flags 2, the event controller→host with flags 3) and carry
    /// the injected timestamps.
    @Test func capturesRecordBothDirectionsFromTheHostsPointOfView() throws {
        let pair = try Pair()
        defer { pair.close() }
        var hostRecords: [BTSnoopRecord] = []
        var boardRecords: [BTSnoopRecord] = []
        pair.host.recorder = { hostRecords.append($0) }
        pair.board.recorder = { boardRecords.append($0) }
        let command = try HCIPacket.command(opcode: HCIOpcode.reset)
        let event = try HCIPacket.event(code: 0x0E, parameters: [0x01, 0x03, 0x0C, 0x00])
        let dataIn = try HCIPacket.acl(handle: 1, data: [1, 2, 3])

        pair.clock.microseconds = 1_000
        try pair.host.send(command)
        pair.clock.microseconds = 2_000
        #expect(try pair.board.receive(timeout: 2000) == command)
        pair.clock.microseconds = 3_000
        try pair.board.send(event)
        try pair.board.send(dataIn)
        pair.clock.microseconds = 4_000
        #expect(try pair.host.receive(timeout: 2000) == event)
        #expect(try pair.host.receive(timeout: 2000) == dataIn)

        #expect(hostRecords.map(\.packet) == [command, event, dataIn])
        #expect(hostRecords.map(\.direction) == [.hostToController, .controllerToHost, .controllerToHost])
        #expect(hostRecords.map(\.flags.rawValue) == [2, 3, 1])
        #expect(hostRecords.map(\.timestamp.unixMicroseconds) == [1_000, 4_000, 4_000])
        #expect(boardRecords.map(\.packet) == [command, event, dataIn])
        #expect(boardRecords.map(\.direction) == [.hostToController, .controllerToHost, .controllerToHost])
        #expect(boardRecords.map(\.timestamp.unixMicroseconds) == [2_000, 3_000, 3_000])

        // The records make a file btsnoop readers accept.
        let file = try BTSnoopWriter().encodeFile(hostRecords)
        #expect(Array(file.prefix(8)) == Array("btsnoop\0".utf8))
    }

    @Test func theBoardGoingAwayEndsAReceive() throws {
        let pair = try Pair()
        defer { pair.close() }
        pair.pty.close()
        #expect(throws: SerialError.vanished(path: pair.client.path)) { try pair.host.receive(timeout: 5000) }
    }
}
