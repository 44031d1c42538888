import BLEHost
import ReflectorFirmware
import Testing
@testable import VirtualBoard

/// Two boards in one air, driven by scripted hosts: what each host sees is what a real
/// controller gives it for the same commands and the same peer.
@Suite struct BoardAirTests {
    static let ltk: [UInt8] = Array(0..<16)
    static let handle = BoardController.connectionHandle

    /// Legacy advertising reaches a legacy scanner with its data, and an active scan gets the
    /// scan response too, at the free-space RSSI of 2 m (-46 dBm).
    @Test func legacyAdvertisingReachesAScanner() {
        var bench = AirBench()
        let data: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0x5B, 0x18]
        let name: [UInt8] = [0x05, 0x09] + Array("test".utf8)
        bench.command(1, LESetAdvertisingParameters(intervalMin: 0xA0, intervalMax: 0xA0))
        bench.command(1, LESetAdvertisingData(data: data))
        bench.command(1, LESetScanResponseData(data: name))
        bench.command(0, LESetScanParameters(active: true))
        bench.command(0, LESetScanEnable(enable: true, filterDuplicates: false))
        bench.command(1, LESetAdvertisingEnable(enable: true))
        bench.run(for: 250_000)
        let reports = bench.leEvents(0, LEAdvertisingReport.self).flatMap(\.reports)
        // Three advertising events in 250 ms at 100 ms (0, 100, 200 ms), each with its scan response.
        #expect(reports.count == 6)
        #expect(reports.first == .init(eventType: 0, addressType: .public, address: AirBench.addresses[1], data: data, rssi: -46))
        #expect(reports.dropFirst().first == .init(eventType: 4, addressType: .public, address: AirBench.addresses[1], data: name, rssi: -46))
    }

    /// Extended advertising with more than one report's data reaches an extended scanner in
    /// fragments (data status "more to come" until the last), and no legacy scanner.
    @Test func extendedAdvertisingFragmentsItsReports() throws {
        var bench = AirBench()
        let data = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        bench.command(1, LESetExtendedAdvertisingParameters(advertisingHandle: 1, eventProperties: 0x01, intervalMin: 0xA0, intervalMax: 0xA0, sid: 3))
        bench.command(1, LESetExtendedAdvertisingData(advertisingHandle: 1, operation: 1, fragmentPreference: 0, data: Array(data[0..<200])))
        bench.command(1, LESetExtendedAdvertisingData(advertisingHandle: 1, operation: 2, fragmentPreference: 0, data: Array(data[200...])))
        bench.command(0, LESetScanEnable(enable: true, filterDuplicates: false))
        bench.command(1, LESetExtendedAdvertisingEnable(enable: true, sets: [.init(handle: 1)]))
        bench.run(for: 50_000)
        #expect(bench.leEvents(0, LEAdvertisingReport.self).isEmpty, "a legacy scanner sees no extended advertising")
        bench.command(0, LESetScanEnable(enable: false, filterDuplicates: false))
        bench.command(0, LESetExtendedScanEnable(enable: true, filterDuplicates: 0))
        bench.run(for: 150_000)
        let reports = bench.leEvents(0, LEExtendedAdvertisingReport.self).flatMap(\.reports)
        try #require(reports.count >= 2)
        #expect(reports[0].eventType == 0x21 && reports[1].eventType == 0x01 && reports[0].sid == 3)
        #expect(reports[0].data + reports[1].data == data)
        // Disable with no sets listed stops every extended set, the legacy-PDU ones included.
        bench.command(1, LESetExtendedAdvertisingParameters(advertisingHandle: 2, eventProperties: 0x13, intervalMin: 0xA0, intervalMax: 0xA0))
        bench.command(1, LESetExtendedAdvertisingEnable(enable: true, sets: [.init(handle: 2)]))
        #expect(bench.air[1].advertising)
        bench.command(1, LESetExtendedAdvertisingEnable(enable: false, sets: []))
        #expect(!bench.air[1].advertising)
    }

    /// LE Create Connection from A connects to B's advertising: Connection Complete on both with
    /// the roles, addresses and interval (the newest form the hosts unmasked: Enhanced v2), and
    /// B's advertising stops.
    @Test func connectionCompletesOnBothBoards() throws {
        var bench = AirBench()
        bench.connect()
        let central = try #require(bench.leEvents(0, LEEnhancedConnectionCompleteV2.self).first)
        let peripheral = try #require(bench.leEvents(1, LEEnhancedConnectionCompleteV2.self).first)
        #expect(central.connection == LEEnhancedConnectionComplete(LEConnectionComplete(connectionHandle: Self.handle, role: .central,
                                                                                                        peerAddress: AirBench.addresses[1], interval: 6, supervisionTimeout: 400)))
        #expect(peripheral.connection == LEEnhancedConnectionComplete(LEConnectionComplete(connectionHandle: Self.handle, role: .peripheral,
                                                                                                           peerAddress: AirBench.addresses[0], interval: 6, supervisionTimeout: 400)))
        #expect(central.advertisingHandle == 0xFF && peripheral.advertisingHandle == 0xFF)
        #expect(bench.leEvents(0, LEConnectionComplete.self).isEmpty, "one form only")
        #expect(bench.air[0].connected && bench.air[1].connected && !bench.air[1].advertising)
    }

    /// ACL data both ways: with the initial 27-octet data length a 100-octet L2CAP PDU arrives
    /// in four fragments (a start, three continuations), each sent packet is acknowledged with
    /// Number Of Completed Packets; after LE Set Data Length, 251 octets go in one.
    @Test func aclFlowsBothWaysInFragmentsWithCredits() throws {
        var bench = AirBench()
        bench.connect()
        let pdu = (0..<100).map { UInt8(truncatingIfNeeded: $0 * 7) }
        bench.acl(0, pdu)
        let got = bench.run(for: 2_000)
        let fragments = got[1].filter { $0.indicator == .aclData }
        #expect(fragments.map { $0.parameters.count } == [27, 27, 27, 19])
        #expect(fragments.map { $0.aclPacketBoundary } == [0b10, 0b01, 0b01, 0b01])
        #expect(fragments.flatMap(\.parameters) == pdu)
        #expect(got[0].compactMap { try? NumberOfCompletedPackets.decode(packet: $0) } == [NumberOfCompletedPackets(connectionHandle: Self.handle, completedPackets: 1)])
        // The other way, a continuation from the host stays a continuation.
        bench.acl(1, [1, 2, 3])
        bench.acl(1, [4, 5], boundary: 0b01)
        let back = bench.run(for: 2_000)[0].filter { $0.indicator == .aclData }
        #expect(back.map { $0.aclPacketBoundary } == [0b10, 0b01] && back.flatMap(\.parameters) == [1, 2, 3, 4, 5])

        let set = bench.command(0, LESetDataLength(connectionHandle: Self.handle, txOctets: 251, txTime: 2120))
        #expect(set.contains { $0.eventCode == HCIEventCode.commandComplete })
        let changes = (bench.leEvents(0, LEDataLengthChange.self), bench.leEvents(1, LEDataLengthChange.self))
        #expect(changes.0 == [LEDataLengthChange(connectionHandle: Self.handle, maxTxOctets: 251, maxTxTime: 2120, maxRxOctets: 27, maxRxTime: 328)])
        #expect(changes.1 == [LEDataLengthChange(connectionHandle: Self.handle, maxTxOctets: 27, maxTxTime: 328, maxRxOctets: 251, maxRxTime: 2120)])
        bench.acl(0, [UInt8](repeating: 0xAB, count: 251))
        #expect(bench.run(for: 2_000)[1].filter { $0.indicator == .aclData }.map { $0.parameters.count } == [251])
    }

    /// Encryption with agreeing keys: LE Long Term Key Request on the peripheral (with the
    /// central's Rand and EDIV), Encryption Change on both; a second LE Enable Encryption
    /// refreshes the key (Encryption Key Refresh Complete on both).
    @Test func agreeingKeysEncryptAndRefresh() throws {
        var bench = AirBench()
        bench.connect()
        bench.command(0, LEEnableEncryption(connectionHandle: Self.handle, randomNumber: 0x1122_3344_5566_7788, encryptedDiversifier: 0x99AA, longTermKey: Self.ltk))
        let request = try #require(bench.leEvents(1, LELongTermKeyRequest.self).first)
        #expect(request == LELongTermKeyRequest(connectionHandle: Self.handle, randomNumber: 0x1122_3344_5566_7788, encryptedDiversifier: 0x99AA))
        bench.command(1, LELongTermKeyRequestReply(connectionHandle: Self.handle, longTermKey: Self.ltk))
        bench.run(for: 2_000)
        #expect(bench.events(0, EncryptionChange.self) == [EncryptionChange(connectionHandle: Self.handle, enabled: true)])
        #expect(bench.events(1, EncryptionChange.self) == [EncryptionChange(connectionHandle: Self.handle, enabled: true)])
        #expect(bench.air[0].encrypted && bench.air[1].encrypted)
        // Data still flows, now encrypted.
        bench.acl(0, [9, 9])
        #expect(bench.run(for: 2_000)[1].contains { $0.indicator == .aclData && $0.parameters == [9, 9] })

        bench.command(0, LEEnableEncryption(connectionHandle: Self.handle, longTermKey: Self.ltk))
        #expect(bench.leEvents(1, LELongTermKeyRequest.self).count == 2)
        bench.command(1, LELongTermKeyRequestReply(connectionHandle: Self.handle, longTermKey: Self.ltk))
        bench.run(for: 2_000)
        #expect(bench.events(0, EncryptionKeyRefreshComplete.self).count == 1 && bench.events(1, EncryptionKeyRefreshComplete.self).count == 1)
        #expect(bench.events(0, EncryptionChange.self).count == 1 && bench.air[0].encrypted && bench.air[1].encrypted)
    }

    /// Keys that differ: the peripheral's MIC check fails on the central's first encrypted PDU
    /// and it drops the link (MIC Failure, 0x3D); the central hears nothing more and its
    /// supervision timer (4 s) ends its side with Connection Timeout (0x08). Neither host is
    /// told the link was encrypted.
    @Test func differingKeysEndInMICFailure() throws {
        var bench = AirBench()
        bench.connect()
        bench.command(0, LEEnableEncryption(connectionHandle: Self.handle, longTermKey: Self.ltk))
        bench.command(1, LELongTermKeyRequestReply(connectionHandle: Self.handle, longTermKey: [UInt8](repeating: 7, count: 16)))
        bench.run(for: 2_000)
        #expect(bench.events(1, DisconnectionComplete.self) == [DisconnectionComplete(connectionHandle: Self.handle, reason: .connectionTerminatedMICFailure)])
        #expect(bench.events(0, DisconnectionComplete.self).isEmpty && bench.air[0].connected)
        bench.run(for: 3_990_000)
        #expect(bench.events(0, DisconnectionComplete.self).isEmpty, "the supervision timeout is 4 s")
        bench.run(for: 20_000)
        #expect(bench.events(0, DisconnectionComplete.self) == [DisconnectionComplete(connectionHandle: Self.handle, reason: .connectionTimeout)])
        #expect(bench.events(0, EncryptionChange.self).isEmpty && bench.events(1, EncryptionChange.self).isEmpty)
    }

    /// A peripheral host without the key answers with LE Long Term Key Request Negative Reply:
    /// the central's host gets Encryption Change with PIN or Key Missing (0x06), and the link
    /// stays up in the clear.
    @Test func negativeReplyLeavesTheLinkUnencrypted() {
        var bench = AirBench()
        bench.connect()
        bench.command(0, LEEnableEncryption(connectionHandle: Self.handle, longTermKey: Self.ltk))
        bench.command(1, LELongTermKeyRequestNegativeReply(connectionHandle: Self.handle))
        bench.run(for: 2_000)
        #expect(bench.events(0, EncryptionChange.self) == [EncryptionChange(status: .pinOrKeyMissing, connectionHandle: Self.handle, enabled: false)])
        #expect(bench.air[0].connected && bench.air[1].connected && !bench.air[0].encrypted)
        let refused = bench.command(0, LECSSecurityEnable(connectionHandle: Self.handle))
        #expect(refused.compactMap { try? CommandStatusEvent.decode(packet: $0) }.first?.status == .insufficientSecurity)
    }

    /// Disconnect from either side reaches the other with the reason the host gave.
    @Test func disconnectionReachesThePeerWithTheReason() {
        for side in 0..<2 {
            var bench = AirBench()
            bench.connect()
            bench.command(side, Disconnect(connectionHandle: Self.handle, reason: .remoteTerminatedPowerOff))
            bench.run(for: 2_000)
            #expect(bench.events(side, DisconnectionComplete.self) == [DisconnectionComplete(connectionHandle: Self.handle, reason: .connectionTerminatedByLocalHost)])
            #expect(bench.events(1 - side, DisconnectionComplete.self) == [DisconnectionComplete(connectionHandle: Self.handle, reason: .remoteTerminatedPowerOff)])
            #expect(!bench.air[0].connected && !bench.air[1].connected)
        }
    }

    /// LE Read Remote Features runs the feature exchange: the peer's LE features, CS (bit 46) among them.
    @Test func remoteFeaturesComeFromThePeer() throws {
        var bench = AirBench()
        bench.connect()
        bench.command(1, LEReadRemoteFeatures(connectionHandle: Self.handle))
        let e = try #require(bench.leEvents(1, LEReadRemoteFeaturesComplete.self).first)
        #expect(e.features == bench.air[0].cs.leFeatures | BoardController.boardFeatures && e.features & 1 << 46 != 0)
    }

    /// The board's own LL procedures wait T_PRT (40 s) for the peer's answer, as the CS
    /// controller's do: an encryption start and a feature exchange a peer never answers end the
    /// link with LL Response Timeout (0x22), and the peer, hearing no more, times out (0x08).
    @Test func unansweredProceduresEndTheLinkAfterTheResponseTimeout() {
        for feature in [false, true] {
            var bench = AirBench()
            bench.connect()
            bench.air.deafBoard = 1
            let asked = bench.now
            if feature {
                bench.command(0, LEReadRemoteFeatures(connectionHandle: Self.handle))
            } else {
                bench.command(0, LEEnableEncryption(connectionHandle: Self.handle, longTermKey: Self.ltk))
            }
            bench.run(for: 39_990_000)
            #expect(bench.events(0, DisconnectionComplete.self).isEmpty, "before T_PRT")
            bench.run(for: 20_000)
            #expect(bench.events(0, DisconnectionComplete.self) == [DisconnectionComplete(connectionHandle: Self.handle, reason: .llResponseTimeout)])
            #expect(bench.now - asked >= 40_000_000)
            bench.run(for: 4_010_000)
            #expect(bench.events(1, DisconnectionComplete.self) == [DisconnectionComplete(connectionHandle: Self.handle, reason: .connectionTimeout)])
        }
    }
}
