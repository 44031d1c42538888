import ReflectorFirmware
import HCITransport
import Testing
@testable import SerialTransport

/// The stall rule on its own, with time passed in: no sleeps.
struct TimedH4FramerTests {
    static let reset: [UInt8] = [0x01, 0x03, 0x0C, 0x00]
    static let resetComplete: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]

    @Test func aPartialPacketThatKeepsComingIsNotStalled() throws {
        var f = TimedH4Framer(stallTimeoutMilliseconds: 100)
        var t: Int64 = 0
        var outputs: [TimedH4Framer.Output] = []
        for b in Self.resetComplete {
            outputs += f.feed([b], at: t)
            t += 99
        }
        #expect(outputs == [.packet(try HCIPacket(h4: Self.resetComplete))])
        #expect(f.droppedPartialPacketCount == 0)
    }

    @Test func aStalledPartialPacketIsDroppedBeforeNewOctets() throws {
        var f = TimedH4Framer(stallTimeoutMilliseconds: 100)
        #expect(f.feed(Array(Self.resetComplete.prefix(4)), at: 0).isEmpty)
        #expect(f.checkStall(at: 99) == nil)
        let out = f.feed(Self.reset, at: 100)
        #expect(out == [.stalledPartialPacket(octets: 4, offset: 0), .packet(try HCIPacket(h4: Self.reset))])
        #expect(f.droppedPartialPacketCount == 1 && f.droppedPartialOctetCount == 4)
        #expect(f.framer.streamOffset == 8)
        #expect(f.skippedByteCount == 0)
    }

    /// A garbled indicator, then octets of the garbled packet that read as an LE Meta event header
    /// declaring 32 parameter octets: without resynchronising, the Reset's answer would be swallowed into that
    /// false start until it stalls; after it, the answer is framed at once.
    @Test func resynchronizingDropsAFalseStartSoTheResetAnswerIsFramed() throws {
        var f = TimedH4Framer(stallTimeoutMilliseconds: 1000)
        let out = f.feed([0x7E, 0x04, 0x3E, 0x20], at: 0)
        #expect(out == [.framingError(.unknownIndicator(byte: 0x7E, offset: 0))])
        #expect(f.feed(Self.resetComplete, at: 1).isEmpty)  // swallowed into the false event
        var g = TimedH4Framer(stallTimeoutMilliseconds: 1000)
        _ = g.feed([0x7E, 0x04, 0x3E, 0x20], at: 0)
        #expect(g.resynchronize() == 3 && g.bufferedByteCount == 0)
        #expect(g.feed(Self.resetComplete, at: 1) == [.packet(try HCIPacket(h4: Self.resetComplete))])
        #expect(g.framer.streamOffset == 4 + Self.resetComplete.count && g.droppedPartialPacketCount == 0)
    }

    @Test func checkingWithNothingBufferedDropsNothing() {
        var f = TimedH4Framer(stallTimeoutMilliseconds: 10)
        _ = f.feed(Self.reset, at: 0)
        #expect(f.checkStall(at: 1_000_000) == nil)
    }

    @Test func garbageIsSkippedAndCounted() throws {
        var f = TimedH4Framer(stallTimeoutMilliseconds: 10)
        let out = f.feed([0x00, 0xFF] + Self.reset, at: 0)
        #expect(out == [
            .framingError(.unknownIndicator(byte: 0x00, offset: 0)),
            .framingError(.unknownIndicator(byte: 0xFF, offset: 1)),
            .packet(try HCIPacket(h4: Self.reset)),
        ])
        #expect(f.skippedByteCount == 2)
    }
}
