import Testing
@testable import ReflectorFirmware
import TestSupport

/// The HCI messages that carry a capabilities block: exact bytes around the block, the v1/v2
/// layouts, and decoders that never trap.
struct CapabilitiesMessagesTests {
    static let caps = CSCapabilitiesTests.sample

    @Test func readLocalReturnBytes() throws {
        let v1 = LECSLocalCapabilitiesReturn(capabilities: Self.caps, layout: .v1).encode()
        #expect(v1 == Hex.bytes("00" + CSCapabilitiesTests.v1Hex))
        #expect(v1.count == 29)
        let v2 = LECSLocalCapabilitiesReturn(capabilities: Self.caps, layout: .v2).encode()
        #expect(v2 == Hex.bytes("00" + CSCapabilitiesTests.v2Hex))
        #expect(v2.count == 32)
        #expect(try LECSLocalCapabilitiesReturn.decode(v2, v2: true).encode() == v2)
        let bumble = Hex.bytes("00" + CSCapabilitiesTests.v2RTTHex)
        #expect(try LECSLocalCapabilitiesReturn.decode(bumble, v2: true).layout == .v2WithPHYSpecificRTT)
        #expect(throws: DecodeError.self) { try LECSLocalCapabilitiesReturn.decode(v2, v2: false) }
        // A failed command returns its status alone.
        #expect(try LECSLocalCapabilitiesReturn.decode([0x0C], v2: false).status == .commandDisallowed)
        // Or with the block a controller fills in anyway, which means nothing after a failure:
        // the value is the status alone, as it encodes (found by the hci-events fuzz target).
        let failed = try LECSLocalCapabilitiesReturn.decode([0x0C] + bumble.dropFirst(), v2: true)
        #expect(failed == LECSLocalCapabilitiesReturn(status: .commandDisallowed, capabilities: CSCapabilities(), layout: .v2))
        #expect(try LECSLocalCapabilitiesReturn.decode(failed.encode(), v2: true) == failed)
        // (A prefix of the 35-octet Bumble form can be a whole 32-octet form, so truncate the short one.)
        DecoderChecks.everyTruncationIsTruncated(v2) { (b) throws(DecodeError) in try LECSLocalCapabilitiesReturn.decode(b, v2: true) }
        DecoderChecks.extraOctetIsTrailing(bumble) { (b) throws(DecodeError) in try LECSLocalCapabilitiesReturn.decode(b, v2: true) }
    }

    @Test func writeCachedRemoteBytes() throws {
        let cmd = LECSWriteCachedRemoteSupportedCapabilities(connectionHandle: 0x0040, capabilities: Self.caps)
        #expect(cmd.packet.encode() == Hex.bytes("8B20 1E 4000" + CSCapabilitiesTests.v1Hex))
        #expect(try LECSWriteCachedRemoteSupportedCapabilities.decode(cmd.encode()).encode() == cmd.encode())
        let v2 = LECSWriteCachedRemoteSupportedCapabilitiesV2(connectionHandle: 0x0040, capabilities: Self.caps)
        #expect(v2.packet.encode() == Hex.bytes("A620 21 4000" + CSCapabilitiesTests.v2Hex))
        #expect(try LECSWriteCachedRemoteSupportedCapabilitiesV2.decode(v2.encode()).encode() == v2.encode())
        DecoderChecks.everyTruncationIsTruncated(v2.encode()) { (b) throws(DecodeError) in try LECSWriteCachedRemoteSupportedCapabilitiesV2.decode(b) }
        DecoderChecks.extraOctetIsTrailing(cmd.encode()) { (b) throws(DecodeError) in try LECSWriteCachedRemoteSupportedCapabilities.decode(b) }
    }

    @Test func remoteCapabilitiesEvents() throws {
        let v1 = LECSReadRemoteSupportedCapabilitiesComplete(connectionHandle: 0x0001, capabilities: Self.caps)
        #expect(v1.packet.encode() == Hex.bytes("3E 20 2C 00 0100" + CSCapabilitiesTests.v1Hex))
        let v2 = LECSReadRemoteSupportedCapabilitiesComplete(connectionHandle: 0x0001, capabilities: Self.caps, layout: .v2)
        #expect(v2.packet.encode() == Hex.bytes("3E 23 38 00 0100" + CSCapabilitiesTests.v2Hex))
        #expect(try LECSReadRemoteSupportedCapabilitiesComplete.decode(packet: v1.packet).packet == v1.packet)
        #expect(try LECSReadRemoteSupportedCapabilitiesComplete.decode(packet: v2.packet).packet == v2.packet)
        let n = DecoderChecks.fuzz(seed: 0xCAFE, valid: v2.encode()) { (b) throws(DecodeError) in try LECSReadRemoteSupportedCapabilitiesComplete.decode(b, v2: true) }
        // Of the 3000 seeded inputs this many decode (random octets rarely, mutations of the
        // valid event often): a decoder that starts accepting or refusing other inputs changes it.
        #expect(n == 479)
    }
}
