import ReflectorFirmware
import EmulatorMath
import HCITransport

/// H4 framing (HCITransport `H4Framer`) of a serial stream. Input: a guard selector, a chunking
/// seed, then the stream.
///
/// Checks: the stream fed whole and in chunks gives the same outputs and counters; every octet
/// is in a packet, skipped or still buffered; every packet is within the guard, parses back
/// from its own H4 bytes and holds exactly what its header declares; error offsets increase and
/// lie inside the stream.
enum H4Target {
    static let guards = [H4Framer.defaultMaximumPacketLength, 0, 3, 4, 64, 258, 1028, 70_000]

    static let target = FuzzTarget("h4", "H4Framer: a serial stream of HCI packets, garbage included, whole and in chunks", seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        let maximum = guards[Int(input.byte() & 7)]
        let chunking = input.byte()
        let stream = input.rest()

        var whole = H4Framer(maximumPacketLength: maximum)
        let outputs = whole.feed(stream)
        var chunked = H4Framer(maximumPacketLength: maximum)
        var pieces: [H4FramerOutput] = []
        inChunks(stream, seed: chunking, longest: 1 + Int(chunking >> 3)) { pieces += chunked.feed($0) }
        require(pieces == outputs, "chunked outputs differ from whole")
        require(chunked.bufferedByteCount == whole.bufferedByteCount && chunked.skippedByteCount == whole.skippedByteCount
                && chunked.packetCount == whole.packetCount && chunked.streamOffset == whole.streamOffset, "chunked counters differ")

        var packetOctets = 0
        var lastOffset = -1
        for output in outputs {
            switch output {
            case .packet(let p):
                packetOctets += p.h4Bytes.count
                require(p.bytes.count <= maximum, "packet of \(p.bytes.count) octets over the guard \(maximum)")
                require((try? HCIPacket(h4: p.h4Bytes)) == p, "packet does not parse back from its H4 bytes")
                require(p.declaredPayloadLength.map { $0 + p.indicator.headerLength } == p.bytes.count, "packet length disagrees with its header")
            case .framingError(let e):
                require(e.offset > lastOffset && e.offset < stream.count, "error offset \(e.offset) out of order or outside the stream")
                lastOffset = e.offset
            }
        }
        require(packetOctets + whole.skippedByteCount + whole.bufferedByteCount == stream.count, "octets unaccounted for")
        require(whole.streamOffset + whole.bufferedByteCount == stream.count, "stream offset wrong")
        let buffered = whole.bufferedByteCount
        require(whole.discardBufferedOctets() == buffered && whole.bufferedByteCount == 0, "discard count wrong")
    }

    static func seeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        let packets = SeedVectors.h4Packets
        out.append([0, 0] + packets.flatMap(\.h4Bytes))
        out.append([4, 0x41] + [0x00] + packets.prefix(3).flatMap(\.h4Bytes) + [0xFF, 0x06])
        out.append([1, 7] + [0x02, 0x00, 0x00, 0xC8, 0x00] + packets[0].h4Bytes)
        for traffic in SeedTraffic.loopbacks.prefix(2) {
            out.append([0, 0x93] + traffic.initiatorH4Stream.prefix(4096))
        }
        return out
    }
}
