import BLEHost
import EmulatorMath
import Foundation
import ReflectorFirmware
import TestSupport
import Testing

/// L2CAP over ACL on the host side: the basic frame's bytes, reassembly of a controller's
/// fragments with every malformation a peer can send, fragmentation to the controller's buffer
/// length with its credits, and both directions against Bumble's own framing and assembler.
@Suite struct L2CAPTests {
    /// ATT Exchange MTU Request (MTU 247) on the ATT channel, as btmon shows it: 03 00 04 00 02 F7 00.
    @Test func basicFrameBytes() throws {
        let frame = L2CAPFrame(channel: L2CAPFrame.attributeProtocol, payload: [0x02, 0xF7, 0x00])
        #expect(frame.encode() == [0x03, 0x00, 0x04, 0x00, 0x02, 0xF7, 0x00])
        #expect(try L2CAPFrame.decode([0x03, 0x00, 0x04, 0x00, 0x02, 0xF7, 0x00]) == frame)
        #expect(throws: DecodeError.truncated(field: "Information_Payload", needed: 1)) { try L2CAPFrame.decode([0x03, 0x00, 0x04, 0x00, 0x02, 0xF7]) }
        #expect(throws: DecodeError.trailingBytes(extra: 1)) { try L2CAPFrame.decode([0x00, 0x00, 0x06, 0x00, 0xAA]) }
        #expect(L2CAPFrame(channel: 4, payload: [UInt8](repeating: 0, count: 65_536)).encode() == nil)
    }

    /// A frame in a start and continuations comes out whole with its last octet, however the
    /// controller cut it: whole, one octet per packet, every split point (inside the basic
    /// header too), frames back to back and random cuts; a start flagged 0b10 or 0b00; an empty
    /// payload. The reassembler holds exactly the octets of the frame in progress.
    @Test func fragmentsReassemble() throws {
        let frames = [L2CAPFrame(channel: 6, payload: Array(0..<60)), L2CAPFrame(channel: 5, payload: []),
                      L2CAPFrame(channel: 4, payload: (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) })]
        try StreamDecoderVerifier { L2CAPReassembler() }.verify(
            messages: frames.map { ($0.encode()!, $0) }, partial: { $0 }, endsAtLastElement: true, randomChunkings: 50, cut: Self.aclPacket)
    }

    /// The ACL packet a controller sends for a fragment: a start (0b10, or 0b00 for every other
    /// frame) first, continuations (0b01) after; no empty continuations.
    static func aclPacket(_ f: Fragment<UInt8>) -> [L2CAPReassembler.Fragment] {
        if f.isFirst { return [L2CAPReassembler.Fragment(boundary: f.message % 2 == 0 ? 0b10 : 0b00, f.elements)] }
        return f.elements.isEmpty ? [] : [L2CAPReassembler.Fragment(boundary: 0b01, f.elements)]
    }

    /// What a peer or controller may get wrong is dropped and named, and the next frame is read.
    @Test func malformedFragmentsAreDropped() {
        var r = L2CAPReassembler(maximumPayload: 100)
        #expect(r.add(boundary: 0b01, [1, 2, 3]) == [.dropped(.continuationWithoutStart(octets: 3))])
        #expect(r.add(boundary: 0b10, [10, 0, 4, 0, 1]) == [.incomplete])
        #expect(r.add(boundary: 0b10, [1, 0, 4, 0, 9]) == [.dropped(.startInterruptedFrame(droppedOctets: 5)), .frame(L2CAPFrame(channel: 4, payload: [9]))])
        #expect(r.add(boundary: 0b10, [101, 0, 4, 0]) == [.dropped(.tooLong(declared: 101, maximum: 100))])
        #expect(r.add(boundary: 0b10, [2, 0, 4, 0, 1, 2, 3]) == [.dropped(.overrun(declared: 2, received: 3))])
        #expect(r.add(boundary: 0b11, [0, 0, 4, 0]) == [.dropped(.invalidBoundary)])
        #expect(r.add(boundary: 0b10, [1, 0, 4, 0, 7]) == [.frame(L2CAPFrame(channel: 4, payload: [7]))])
    }

    /// Outbound: fragments of the buffer length, 0b00 then 0b01, at most as many in flight as
    /// the controller has buffers, the rest released by Number Of Completed Packets in order.
    @Test func outboundKeepsToTheControllersBuffers() throws {
        var out = ACLOutbound(connectionHandle: 0x0040, bufferLength: 27, bufferCount: 2)
        out.enqueue(L2CAPFrame(channel: 4, payload: [UInt8](repeating: 0xA5, count: 96)))  // 100 octets: 27, 27, 27, 19
        let first = out.sendable()
        #expect(first.map { $0.parameters.count } == [27, 27] && first.map(\.aclPacketBoundary) == [0b00, 0b01])
        #expect(out.sendable().isEmpty && out.inFlight == 2 && out.queued == 2)
        out.completed(1)
        #expect(out.sendable().map { $0.parameters.count } == [27])
        out.completed(5)  // more than were sent: all free, no more
        let rest = out.sendable()
        #expect(rest.map { $0.parameters.count } == [19] && rest.allSatisfy { $0.aclHandle == 0x0040 } && out.inFlight == 1)
        var r = L2CAPReassembler()
        var got: [L2CAPReassembler.Outcome] = []
        for p in first + [try #require(try? HCIPacket.acl(handle: 0x40, packetBoundary: 0b01, data: Array(repeating: 0xA5, count: 27)))] + rest {
            got += r.add(boundary: p.aclPacketBoundary ?? 0, p.parameters)
        }
        #expect(got.last == .frame(L2CAPFrame(channel: 4, payload: [UInt8](repeating: 0xA5, count: 96))))
    }

    /// Against Bumble (`bumble.l2cap.L2CAP_PDU`, `bumble.hci.HCI_AclDataPacketAssembler`):
    /// for seeded frames of every size class, Bumble's PDU bytes are ours, our fragments (27 and
    /// 251 octets) reassemble in Bumble's assembler to the same PDU, and Bumble's fragments
    /// (its host's split: first non-flushable, then continuations) reassemble in ours.
    @Test func framingAgreesWithBumble() throws {
        var rng = SplitMix64(seed: 0x12CA_F0E1)
        var frames: [L2CAPFrame] = []
        for size in [0, 1, 22, 23, 27, 100, 247, 251, 512, 1000] {
            let channel: UInt16 = [4, 5, 6][rng.below(3)]
            frames.append(L2CAPFrame(channel: channel, payload: rng.bytes(size)))
        }
        // Per frame and ACL buffer length: Bumble builds the PDU, reassembles our fragments, and splits its PDU as its host does.
        var vectors: [BumbleOracle.Vector] = []
        for f in frames {
            for length in [27, 251] {
                var out = ACLOutbound(connectionHandle: 0x0040, bufferLength: length, bufferCount: 1_000)
                out.enqueue(f)
                vectors.append(BumbleOracle.Vector("l2cap.L2CAP_PDU(\(f.channel), B('\(Hex.string(f.payload))'))",
                                                   ours: out.sendable().map { Hex.string($0.h4Bytes) }.joined(separator: ","),
                                                   fields: "acl_fragments(built, \(length))"))
            }
        }
        let answers = try BumbleOracle.answers(.l2cap, vectors)
        for (i, answer) in answers.enumerated() {
            let frame = frames[i / 2]
            let ours = Hex.string(frame.encode()!)
            #expect(answer.built == ours, "Bumble's PDU for frame \(i / 2)")
            #expect(answer.parsed == ours, "Bumble reassembled our fragments of frame \(i / 2) to \(answer.parsed.prefix(40))")
            var reassembler = L2CAPReassembler(maximumPayload: 4096)
            var outcomes: [L2CAPReassembler.Outcome] = []
            for hex in answer.fields.trimmingCharacters(in: CharacterSet(charactersIn: "'")).split(separator: ",") {
                let p = try HCIPacket(h4: Hex.bytes(String(hex)))
                outcomes += reassembler.add(boundary: p.aclPacketBoundary ?? 0, p.parameters)
            }
            #expect(outcomes.last == .frame(frame) && outcomes.dropLast().allSatisfy { $0 == .incomplete }, "ours reassembled Bumble's fragments of frame \(i / 2)")
        }
    }
}
