import MCUboot

/// MCUboot serial recovery as a host reads it: the SMP console framing (`SMPConsoleDecoder`),
/// the SMP packet and its CBOR body.
///
/// Input: a mode octet. Mode bit 0 clear: the rest is console traffic, decoded whole and in
/// chunks (the chunking seeded by the mode octet). Set: the rest is the octets of one SMP
/// packet, framed correctly (length, CRC16, base64 lines) by the target.
///
/// Checks: console traffic gives the same events whole and in chunks; every packet decoded
/// frames and decodes again to itself; after the traffic, a valid frame still decodes to exactly
/// its packet. A framed buffer gives exactly one event: the packet `SMPPacket(decoding:)`
/// makes of it, or the error it throws, or `badLength` outside the decoder's limits.
enum SMPConsoleTarget {
    static let probe = SMPPacket(op: .writeResponse, command: .imageUpload, sequence: 9, body: .map(["rc": .int(0), "off": .int(100)]))

    static let target = FuzzTarget("smp-console", "SMPConsoleDecoder: console traffic whole and in chunks; framed SMP packets",
                                   seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        let mode = input.byte()
        let rest = input.rest()
        if mode & 1 == 0 {
            var whole = SMPConsoleDecoder()
            let events = whole.feed(rest)
            var chunked = SMPConsoleDecoder()
            var pieces: [SMPConsoleDecoder.Event] = []
            inChunks(rest, seed: mode, longest: 1 + Int(mode >> 2)) { pieces += chunked.feed($0) }
            require(pieces == events, "chunked events differ from whole")
            require(chunked.isInsideFrame == whole.isInsideFrame, "chunked state differs")
            for case .packet(let p) in events {
                var fresh = SMPConsoleDecoder()
                require(fresh.feed(SMPConsoleEncoder.encode(p)) == [.packet(p)], "a decoded packet does not frame and decode to itself")
                require((try? SMPPacket(decoding: p.encoded())) == p, "a decoded packet does not re-encode")
                _ = try? p.body()
            }
            let after = whole.feed(SMPConsoleEncoder.encode(probe))
            require(after.last == .packet(probe) && after.dropLast().allSatisfy { $0 == .error(.interrupted) },
                    "the decoder did not recover after the traffic: \(after)")
        } else {
            let crc = CRC16.xmodem(rest)
            let n = rest.count + 2
            guard n <= 0xFFFF else { return }
            let buffer = [UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + rest + [UInt8(crc >> 8), UInt8(crc & 0xFF)]
            let text = Base64.encode(buffer)
            var framed: [UInt8] = []
            var i = 0
            while i < text.count {
                framed += i == 0 ? SMPConsoleEncoder.frameStart : SMPConsoleEncoder.continuation
                framed += text[i..<min(text.count, i + 124)]
                framed.append(0x0A)
                i += 124
            }
            var decoder = SMPConsoleDecoder()
            let events = decoder.feed(framed)
            let expected: SMPConsoleDecoder.Event
            if n > decoder.maximumFrameLength || n < SMPPacket.headerSize + 2 {
                expected = .error(.badLength(declared: n))
            } else {
                do {
                    expected = .packet(try SMPPacket(decoding: rest))
                } catch let error as SMPError {
                    expected = .error(.badPacket(error))
                } catch {
                    return
                }
            }
            require(events == [expected], "a framed buffer of \(rest.count) octets gave \(events), not \(expected)")
        }
    }

    static func seeds() -> [[UInt8]] {
        let packets = SeedVectors.smpPackets
        var out: [[UInt8]] = packets.map { [0] + SMPConsoleEncoder.encode($0) }
        out.append([0x12] + Array("*** Booting MCUboot ***\r\n".utf8) + packets.flatMap { SMPConsoleEncoder.encode($0, lineLength: 40) })
        out += packets.map { [1] + $0.encoded() }
        return out
    }
}
