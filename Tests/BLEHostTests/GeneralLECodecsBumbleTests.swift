import BLEHost
import EmulatorMath
import Foundation
import ReflectorFirmware
import TestSupport
import Testing

/// The general LE HCI codecs of `BLEHost/HCI` against a second implementation, Bumble's
/// `bumble.hci` (scripts/ensure-deps installs it): for every codec, several field-value sets
/// drawn from a seeded generator are built by Bumble with the same field values
/// (`bytes(hci.HCI_…(…))`, the H4 packet) and by us; the packets must agree octet for octet,
/// and Bumble's packet must decode to the very value we encoded. One python3 process builds
/// every vector (one expression a line in, one hex line out).
@Suite struct GeneralLECodecsBumbleTests {
    /// Field-value sets per codec.
    static let perType = 8

    struct Vector {
        var label: String
        var python: String
        var ours: [UInt8]
        var decodes: @Sendable ([UInt8]) -> Bool
    }

    struct Vectors {
        var all: [Vector] = []
        var rng = SplitMix64(seed: 0x6E4C_F0E1_0A11_C0DE)

        mutating func command<C: HCICommand>(_ value: C, _ python: String) {
            all.append(Vector(label: "\(C.self)", python: "hci." + python, ours: value.packet.h4Bytes) { bytes in
                guard let p = try? HCIPacket(h4: bytes) else { return false }
                return (try? C.decode(packet: p)) == value
            })
        }

        mutating func event<E: HCIEvent>(_ value: E, _ python: String) {
            all.append(Vector(label: "\(E.self)", python: "hci." + python, ours: value.packet.h4Bytes) { bytes in
                guard let p = try? HCIPacket(h4: bytes) else { return false }
                return (try? E.decode(packet: p)) == value
            })
        }

        mutating func subevent<E: LEMetaSubevent>(_ value: E, _ python: String) {
            all.append(Vector(label: "\(E.self)", python: "hci." + python, ours: value.packet.h4Bytes) { bytes in
                guard let p = try? HCIPacket(h4: bytes) else { return false }
                return (try? E.decode(packet: p)) == value
            })
        }

        /// Return parameters in Command Complete of `opcode`.
        mutating func returned<R: HCIParameters>(_ value: R, opcode: UInt16, _ python: String) {
            let event = CommandCompleteEvent(numHCIPackets: 1, opcode: opcode, returnParameters: value.encode())
            all.append(Vector(label: "\(R.self)", python: "hci.HCI_Command_Complete_Event(num_hci_command_packets=1, command_opcode=\(opcode), return_parameters=hci.\(python))",
                              ours: event.packet.h4Bytes) { bytes in
                guard let p = try? HCIPacket(h4: bytes), let e = try? CommandCompleteEvent.decode(packet: p) else { return false }
                return e.opcode == opcode && (try? R.decode(e.returnParameters)) == value
            })
        }

        // MARK: Draws

        /// An enumerated octet drawn as `u8(r)` draws it.
        mutating func value<E: RawRepresentable>(_ r: ClosedRange<UInt8>) -> E where E.RawValue == UInt8 { E(rawValue: u8(r))! }
        mutating func u8(_ r: ClosedRange<UInt8> = 0...255) -> UInt8 { r.lowerBound + UInt8(rng.below(Int(r.upperBound - r.lowerBound) + 1)) }
        mutating func u16(_ r: ClosedRange<UInt16> = 0...0xFFFF) -> UInt16 { r.lowerBound + UInt16(rng.below(Int(r.upperBound - r.lowerBound) + 1)) }
        mutating func handle() -> UInt16 { u16(0...0x0EFF) }
        mutating func address() -> UInt64 { rng.next() & 0xFFFF_FFFF_FFFF }
        mutating func bool() -> Bool { rng.next() & 1 == 1 }
        mutating func i8() -> Int8 { Int8(bitPattern: u8()) }
        mutating func data(_ maximum: Int) -> [UInt8] { rng.bytes(rng.below(maximum + 1)) }
        mutating func key() -> [UInt8] { rng.bytes(16) }
        mutating func status() -> HCIStatus { HCIStatus.allCases[rng.below(HCIStatus.allCases.count)] }
        mutating func pick(_ values: [UInt8]) -> UInt8 { values[rng.below(values.count)] }
    }

    // MARK: Python literals

    /// A Bumble Address from the low 48 bits (as on the wire, little-endian).
    static func a(_ v: UInt64) -> String {
        var w = ByteWriter(capacity: 6)
        w.uint(v, 6)
        return "A('\(Hex.string(w.bytes))')"
    }
    static func b(_ bytes: [UInt8]) -> String { "B('\(Hex.string(bytes))')" }
    static func le(_ v: UInt64, _ n: Int) -> String {
        var w = ByteWriter(capacity: n)
        w.uint(v, n)
        return b(w.bytes)
    }
    static func list<T>(_ xs: [T], _ f: (T) -> String) -> String { "[" + xs.map(f).joined(separator: ", ") + "]" }

    static func vectors() -> [Vector] {
        var v = Vectors()
        for _ in 0..<perType {
            commands(&v)
            events(&v)
        }
        return v.all
    }

    static func commands(_ v: inout Vectors) {
        let ap = LESetAdvertisingParameters(intervalMin: v.u16(), intervalMax: v.u16(), advertisingType: v.value(0...4), ownAddressType: v.value(0...3),
                                            peerAddressType: v.value(0...1), peerAddress: v.address(), channelMap: v.u8(0...7), filterPolicy: v.u8(0...3))
        v.command(ap, "HCI_LE_Set_Advertising_Parameters_Command(advertising_interval_min=\(ap.intervalMin), advertising_interval_max=\(ap.intervalMax), advertising_type=\(ap.advertisingType.rawValue), own_address_type=\(ap.ownAddressType.rawValue), peer_address_type=\(ap.peerAddressType.rawValue), peer_address=\(a(ap.peerAddress)), advertising_channel_map=\(ap.channelMap), advertising_filter_policy=\(ap.filterPolicy))")
        let ad = LESetAdvertisingData(data: v.data(31))
        v.command(ad, "HCI_LE_Set_Advertising_Data_Command(advertising_data=\(b(ad.data)))")
        let sr = LESetScanResponseData(data: v.data(31))
        v.command(sr, "HCI_LE_Set_Scan_Response_Data_Command(scan_response_data=\(b(sr.data)))")
        let ae = LESetAdvertisingEnable(enable: v.bool())
        v.command(ae, "HCI_LE_Set_Advertising_Enable_Command(advertising_enable=\(ae.enable ? 1 : 0))")
        let sp = LESetScanParameters(active: v.bool(), interval: v.u16(), window: v.u16(), ownAddressType: v.value(0...3), filterPolicy: v.u8(0...3))
        v.command(sp, "HCI_LE_Set_Scan_Parameters_Command(le_scan_type=\(sp.active ? 1 : 0), le_scan_interval=\(sp.interval), le_scan_window=\(sp.window), own_address_type=\(sp.ownAddressType.rawValue), scanning_filter_policy=\(sp.filterPolicy))")
        let se = LESetScanEnable(enable: v.bool(), filterDuplicates: v.bool())
        v.command(se, "HCI_LE_Set_Scan_Enable_Command(le_scan_enable=\(se.enable ? 1 : 0), filter_duplicates=\(se.filterDuplicates ? 1 : 0))")
        let cc = LECreateConnection(scanInterval: v.u16(), scanWindow: v.u16(), filterPolicy: v.u8(0...1), peerAddressType: v.value(0...3), peerAddress: v.address(),
                                    ownAddressType: v.value(0...3), intervalMin: v.u16(), intervalMax: v.u16(), maxLatency: v.u16(), supervisionTimeout: v.u16(),
                                    minCELength: v.u16(), maxCELength: v.u16())
        v.command(cc, "HCI_LE_Create_Connection_Command(le_scan_interval=\(cc.scanInterval), le_scan_window=\(cc.scanWindow), initiator_filter_policy=\(cc.filterPolicy), peer_address_type=\(cc.peerAddressType.rawValue), peer_address=\(a(cc.peerAddress)), own_address_type=\(cc.ownAddressType.rawValue), connection_interval_min=\(cc.intervalMin), connection_interval_max=\(cc.intervalMax), max_latency=\(cc.maxLatency), supervision_timeout=\(cc.supervisionTimeout), min_ce_length=\(cc.minCELength), max_ce_length=\(cc.maxCELength))")
        v.command(LECreateConnectionCancel(), "HCI_LE_Create_Connection_Cancel_Command()")
        let xp = LESetExtendedAdvertisingParameters(
            advertisingHandle: v.u8(0...0xEF), eventProperties: v.u16(0...0x7F), intervalMin: UInt32(v.rng.next() & 0xFF_FFFF), intervalMax: UInt32(v.rng.next() & 0xFF_FFFF),
            channelMap: v.u8(0...7), ownAddressType: v.value(0...3), peerAddressType: v.value(0...1), peerAddress: v.address(), filterPolicy: v.u8(0...3), txPower: v.i8(),
            primaryPHY: v.pick([1, 3]), secondaryMaxSkip: v.u8(), secondaryPHY: v.u8(1...3), sid: v.u8(0...15), scanRequestNotification: v.bool())
        v.command(xp, "HCI_LE_Set_Extended_Advertising_Parameters_Command(advertising_handle=\(xp.advertisingHandle), advertising_event_properties=\(xp.eventProperties), primary_advertising_interval_min=\(xp.intervalMin), primary_advertising_interval_max=\(xp.intervalMax), primary_advertising_channel_map=\(xp.channelMap), own_address_type=\(xp.ownAddressType.rawValue), peer_address_type=\(xp.peerAddressType.rawValue), peer_address=\(a(xp.peerAddress)), advertising_filter_policy=\(xp.filterPolicy), advertising_tx_power=\(UInt8(bitPattern: xp.txPower)), primary_advertising_phy=\(xp.primaryPHY), secondary_advertising_max_skip=\(xp.secondaryMaxSkip), secondary_advertising_phy=\(xp.secondaryPHY), advertising_sid=\(xp.sid), scan_request_notification_enable=\(xp.scanRequestNotification ? 1 : 0))")
        let xd = LESetExtendedAdvertisingData(advertisingHandle: v.u8(0...0xEF), operation: v.u8(0...4), fragmentPreference: v.u8(0...1), data: v.data(251))
        v.command(xd, "HCI_LE_Set_Extended_Advertising_Data_Command(advertising_handle=\(xd.advertisingHandle), operation=\(xd.operation), fragment_preference=\(xd.fragmentPreference), advertising_data=\(b(xd.data)))")
        let xs = LESetExtendedScanResponseData(advertisingHandle: v.u8(0...0xEF), operation: v.u8(0...4), fragmentPreference: v.u8(0...1), data: v.data(251))
        v.command(xs, "HCI_LE_Set_Extended_Scan_Response_Data_Command(advertising_handle=\(xs.advertisingHandle), operation=\(xs.operation), fragment_preference=\(xs.fragmentPreference), scan_response_data=\(b(xs.data)))")
        let enable = v.bool()
        let sets = (0..<(enable ? 1 + v.rng.below(4) : v.rng.below(4))).map { _ in
            LESetExtendedAdvertisingEnable.AdvertisingSet(handle: v.u8(0...0xEF), duration: v.u16(), maxEvents: v.u8())
        }
        let xe = LESetExtendedAdvertisingEnable(enable: enable, sets: sets)
        v.command(xe, "HCI_LE_Set_Extended_Advertising_Enable_Command(enable=\(enable ? 1 : 0), advertising_handles=\(list(sets) { "\($0.handle)" }), durations=\(list(sets) { "\($0.duration)" }), max_extended_advertising_events=\(list(sets) { "\($0.maxEvents)" }))")
        func scanPHY(_ v: inout Vectors) -> LESetExtendedScanParameters.PHYParameters? {
            v.bool() ? LESetExtendedScanParameters.PHYParameters(active: v.bool(), interval: v.u16(), window: v.u16()) : nil
        }
        let xsp = LESetExtendedScanParameters(ownAddressType: v.value(0...3), filterPolicy: v.u8(0...3), le1M: scanPHY(&v), leCoded: scanPHY(&v))
        let scanPHYs = [xsp.le1M, xsp.leCoded].compactMap { $0 }
        v.command(xsp, "HCI_LE_Set_Extended_Scan_Parameters_Command(own_address_type=\(xsp.ownAddressType.rawValue), scanning_filter_policy=\(xsp.filterPolicy), scanning_phys=\(xsp.scanningPHYs), scan_types=\(list(scanPHYs) { $0.active ? "1" : "0" }), scan_intervals=\(list(scanPHYs) { "\($0.interval)" }), scan_windows=\(list(scanPHYs) { "\($0.window)" }))")
        let xse = LESetExtendedScanEnable(enable: v.bool(), filterDuplicates: v.u8(0...2), duration: v.u16(), period: v.u16())
        v.command(xse, "HCI_LE_Set_Extended_Scan_Enable_Command(enable=\(xse.enable ? 1 : 0), filter_duplicates=\(xse.filterDuplicates), duration=\(xse.duration), period=\(xse.period))")
        func connectPHY(_ v: inout Vectors, _ on: Bool) -> LEExtendedCreateConnection.PHYParameters? {
            on ? LEExtendedCreateConnection.PHYParameters(scanInterval: v.u16(), scanWindow: v.u16(), intervalMin: v.u16(), intervalMax: v.u16(), maxLatency: v.u16(),
                                                          supervisionTimeout: v.u16(), minCELength: v.u16(), maxCELength: v.u16()) : nil
        }
        let phys = v.u8(1...7)
        let xc = LEExtendedCreateConnection(filterPolicy: v.u8(0...1), ownAddressType: v.value(0...3), peerAddressType: v.value(0...3), peerAddress: v.address(),
                                            le1M: connectPHY(&v, phys & 1 != 0), le2M: connectPHY(&v, phys & 2 != 0), leCoded: connectPHY(&v, phys & 4 != 0))
        let cp = [xc.le1M, xc.le2M, xc.leCoded].compactMap { $0 }
        v.command(xc, "HCI_LE_Extended_Create_Connection_Command(initiator_filter_policy=\(xc.filterPolicy), own_address_type=\(xc.ownAddressType.rawValue), peer_address_type=\(xc.peerAddressType.rawValue), peer_address=\(a(xc.peerAddress)), initiating_phys=\(xc.initiatingPHYs), scan_intervals=\(list(cp) { "\($0.scanInterval)" }), scan_windows=\(list(cp) { "\($0.scanWindow)" }), connection_interval_mins=\(list(cp) { "\($0.intervalMin)" }), connection_interval_maxs=\(list(cp) { "\($0.intervalMax)" }), max_latencies=\(list(cp) { "\($0.maxLatency)" }), supervision_timeouts=\(list(cp) { "\($0.supervisionTimeout)" }), min_ce_lengths=\(list(cp) { "\($0.minCELength)" }), max_ce_lengths=\(list(cp) { "\($0.maxCELength)" }))")
        let d = Disconnect(connectionHandle: v.handle(), reason: v.status())
        v.command(d, "HCI_Disconnect_Command(connection_handle=\(d.connectionHandle), reason=\(d.reason.rawValue))")
        let ee = LEEnableEncryption(connectionHandle: v.handle(), randomNumber: v.rng.next(), encryptedDiversifier: v.u16(), longTermKey: v.key())
        v.command(ee, "HCI_LE_Enable_Encryption_Command(connection_handle=\(ee.connectionHandle), random_number=\(le(ee.randomNumber, 8)), encrypted_diversifier=\(ee.encryptedDiversifier), long_term_key=\(b(ee.longTermKey)))")
        let lr = LELongTermKeyRequestReply(connectionHandle: v.handle(), longTermKey: v.key())
        v.command(lr, "HCI_LE_Long_Term_Key_Request_Reply_Command(connection_handle=\(lr.connectionHandle), long_term_key=\(b(lr.longTermKey)))")
        let ln = LELongTermKeyRequestNegativeReply(connectionHandle: v.handle())
        v.command(ln, "HCI_LE_Long_Term_Key_Request_Negative_Reply_Command(connection_handle=\(ln.connectionHandle))")
        let dl = LESetDataLength(connectionHandle: v.handle(), txOctets: v.u16(), txTime: v.u16())
        v.command(dl, "HCI_LE_Set_Data_Length_Command(connection_handle=\(dl.connectionHandle), tx_octets=\(dl.txOctets), tx_time=\(dl.txTime))")
        let rf = LEReadRemoteFeatures(connectionHandle: v.handle())
        v.command(rf, "HCI_LE_Read_Remote_Features_Command(connection_handle=\(rf.connectionHandle))")
        let ra = LESetRandomAddress(address: v.address())
        v.command(ra, "HCI_LE_Set_Random_Address_Command(random_address=\(a(ra.address)))")
        for opcode in [HCIOpcode.leLongTermKeyRequestReply, HCIOpcode.leLongTermKeyRequestNegativeReply, HCIOpcode.leSetDataLength] {
            let r = StatusConnectionHandleReturn(status: v.status(), connectionHandle: v.handle())
            v.returned(r, opcode: opcode, "HCI_StatusAndConnectionHandleReturnParameters(status=\(r.status.rawValue), connection_handle=\(r.connectionHandle))")
        }
    }

    static func events(_ v: inout Vectors) {
        let ec = EncryptionChange(status: v.status(), connectionHandle: v.handle(), encryptionEnabled: v.u8(0...2))
        v.event(ec, "HCI_Encryption_Change_Event(status=\(ec.status.rawValue), connection_handle=\(ec.connectionHandle), encryption_enabled=\(ec.encryptionEnabled))")
        let kr = EncryptionKeyRefreshComplete(status: v.status(), connectionHandle: v.handle())
        v.event(kr, "HCI_Encryption_Key_Refresh_Complete_Event(status=\(kr.status.rawValue), connection_handle=\(kr.connectionHandle))")
        let entries = (0..<(1 + v.rng.below(5))).map { _ in NumberOfCompletedPackets.Entry(connectionHandle: v.handle(), completedPackets: v.u16()) }
        let nc = NumberOfCompletedPackets(entries: entries)
        v.event(nc, "HCI_Number_Of_Completed_Packets_Event(connection_handles=\(list(entries) { "\($0.connectionHandle)" }), num_completed_packets=\(list(entries) { "\($0.completedPackets)" }))")
        let cc = LEConnectionComplete(status: v.status(), connectionHandle: v.handle(), role: v.value(0...1), peerAddressType: v.value(0...1), peerAddress: v.address(),
                                      interval: v.u16(), peripheralLatency: v.u16(), supervisionTimeout: v.u16(), centralClockAccuracy: v.u8(0...7))
        v.subevent(cc, "HCI_LE_Connection_Complete_Event(status=\(cc.status.rawValue), connection_handle=\(cc.connectionHandle), role=\(cc.role.rawValue), peer_address_type=\(cc.peerAddressType.rawValue), peer_address=\(a(cc.peerAddress)), connection_interval=\(cc.interval), peripheral_latency=\(cc.peripheralLatency), supervision_timeout=\(cc.supervisionTimeout), central_clock_accuracy=\(cc.centralClockAccuracy))")
        let (enStatus, enHandle, enRole, enPeerType, enPeer) = (v.status(), v.handle(), v.value(0...1) as LinkRole, v.value(0...3) as AddressType, v.address())
        let (enLocalRPA, enPeerRPA) = (v.address(), v.address())
        let en = LEEnhancedConnectionComplete(LEConnectionComplete(status: enStatus, connectionHandle: enHandle, role: enRole, peerAddressType: enPeerType, peerAddress: enPeer,
                                                                   interval: v.u16(), peripheralLatency: v.u16(), supervisionTimeout: v.u16(), centralClockAccuracy: v.u8(0...7)),
                                              localResolvablePrivateAddress: enLocalRPA, peerResolvablePrivateAddress: enPeerRPA)
        let enFields = "status=\(en.status.rawValue), connection_handle=\(en.connectionHandle), role=\(en.role.rawValue), peer_address_type=\(en.peerAddressType.rawValue), peer_address=\(a(en.peerAddress)), local_resolvable_private_address=\(a(en.localResolvablePrivateAddress)), peer_resolvable_private_address=\(a(en.peerResolvablePrivateAddress)), connection_interval=\(en.interval), peripheral_latency=\(en.peripheralLatency), supervision_timeout=\(en.supervisionTimeout), central_clock_accuracy=\(en.centralClockAccuracy)"
        v.subevent(en, "HCI_LE_Enhanced_Connection_Complete_Event(\(enFields))")
        let e2 = LEEnhancedConnectionCompleteV2(connection: en, advertisingHandle: v.u8(), syncHandle: v.u16())
        v.subevent(e2, "HCI_LE_Enhanced_Connection_Complete_V2_Event(\(enFields), advertising_handle=\(e2.advertisingHandle), sync_handle=\(e2.syncHandle))")
        let reports = (0..<(1 + v.rng.below(4))).map { _ in
            LEAdvertisingReport.Report(eventType: v.u8(0...4), addressType: v.value(0...3), address: v.address(), data: v.data(31), rssi: v.i8())
        }
        let ar = LEAdvertisingReport(reports: reports)
        v.subevent(ar, "HCI_LE_Advertising_Report_Event(reports=\(list(reports) { "hci.HCI_LE_Advertising_Report_Event.Report(event_type=\($0.eventType), address_type=\($0.addressType.rawValue), address=\(a($0.address)), data=\(b($0.data)), rssi=\($0.rssi))" }))")
        let xreports = (0..<(1 + v.rng.below(3))).map { _ in
            LEExtendedAdvertisingReport.Report(eventType: v.u16(0...0x7F), addressType: v.u8(0...3), address: v.address(), primaryPHY: v.pick([1, 3]),
                                               secondaryPHY: v.u8(0...3), sid: v.pick([0, 5, 15, 0xFF]), txPower: v.i8(), rssi: v.i8(), periodicInterval: v.u16(),
                                               directAddressType: v.u8(0...3), directAddress: v.address(), data: v.data(60))
        }
        let xr = LEExtendedAdvertisingReport(reports: xreports)
        v.subevent(xr, "HCI_LE_Extended_Advertising_Report_Event(reports=\(list(xreports) { "hci.HCI_LE_Extended_Advertising_Report_Event.Report(event_type=\($0.eventType), address_type=\($0.addressType), address=\(a($0.address)), primary_phy=\($0.primaryPHY), secondary_phy=\($0.secondaryPHY), advertising_sid=\($0.sid), tx_power=\(UInt8(bitPattern: $0.txPower)), rssi=\($0.rssi), periodic_advertising_interval=\($0.periodicInterval), direct_address_type=\($0.directAddressType), direct_address=\(a($0.directAddress)), data=\(b($0.data)))" }))")
        let lk = LELongTermKeyRequest(connectionHandle: v.handle(), randomNumber: v.rng.next(), encryptedDiversifier: v.u16())
        v.subevent(lk, "HCI_LE_Long_Term_Key_Request_Event(connection_handle=\(lk.connectionHandle), random_number=\(le(lk.randomNumber, 8)), encryption_diversifier=\(lk.encryptedDiversifier))")
        let rf = LEReadRemoteFeaturesComplete(status: v.status(), connectionHandle: v.handle(), features: v.rng.next())
        v.subevent(rf, "HCI_LE_Read_Remote_Features_Complete_Event(status=\(rf.status.rawValue), connection_handle=\(rf.connectionHandle), le_features=\(le(rf.features, 8)))")
        let dc = LEDataLengthChange(connectionHandle: v.handle(), maxTxOctets: v.u16(), maxTxTime: v.u16(), maxRxOctets: v.u16(), maxRxTime: v.u16())
        v.subevent(dc, "HCI_LE_Data_Length_Change_Event(connection_handle=\(dc.connectionHandle), max_tx_octets=\(dc.maxTxOctets), max_tx_time=\(dc.maxTxTime), max_rx_octets=\(dc.maxRxOctets), max_rx_time=\(dc.maxRxTime))")
    }

    /// Runs Bumble once over every vector: per vector one line, the packet Bumble builds from the
    /// expression and the packet Bumble re-serialises after parsing ours (hex, or `ERR …`), tab-separated.
    static func bumble(_ vectors: [Vector]) throws -> [(built: String, parsed: String)] {
        try BumbleOracle.answers(.hci, vectors.map { BumbleOracle.Vector($0.python, ours: Hex.string($0.ours)) }).map { ($0.built, $0.parsed) }
    }

    /// Every codec, `perType` field-value sets each: Bumble's packet is ours octet for octet
    /// and decodes to the value we encoded, and Bumble parses our packet and writes it back
    /// unchanged.
    @Test func everyCodecAgreesWithBumble() throws {
        let vectors = Self.vectors()
        let lines = try Self.bumble(vectors)
        try #require(lines.count == vectors.count, "Bumble printed \(lines.count) lines for \(vectors.count) vectors")
        var labels = Set<String>()
        for (vector, line) in zip(vectors, lines) {
            labels.insert(vector.label)
            let theirs = line.built.hasPrefix("ERR") ? [] : Hex.bytes(line.built)
            #expect(!line.built.hasPrefix("ERR"), "\(vector.label): Bumble could not build \(vector.python): \(line.built)")
            #expect(theirs == vector.ours, "\(vector.label): Bumble \(line.built)\n ours   \(Hex.string(vector.ours))\n from \(vector.python)")
            #expect(vector.decodes(theirs), "\(vector.label): Bumble's \(line.built) does not decode to our value")
            #expect(line.parsed == Hex.string(vector.ours), "\(vector.label): Bumble parses ours \(Hex.string(vector.ours)) and writes \(line.parsed)")
        }
        // 22 commands, 3 return parameters (one type), 11 events; each drawn perType times.
        #expect(labels.count == 22 + 1 + 11, "codecs covered: \(labels.sorted())")
        #expect(vectors.count == Self.perType * (22 + 3 + 11))
    }

    /// Every vector one octet short and one octet long (the packet's length field adjusted, so
    /// only the codec sees the difference) is refused with a `DecodeError`, never a trap.
    @Test func wrongLengthsAreRefused() {
        for vector in Self.vectors() {
            let lengthIndex = vector.ours[0] == HCIPacketIndicator.command.rawValue ? 3 : 2
            var long = vector.ours
            long[lengthIndex] += 1
            long.append(0)
            #expect(!vector.decodes(long), "\(vector.label) takes a trailing octet: \(Hex.string(long))")
            let minimum = lengthIndex + 1 + (vector.ours[1] == HCIEventCode.leMeta && lengthIndex == 2 ? 1 : 0)
            guard vector.ours.count > minimum else { continue }
            var short = vector.ours
            short[lengthIndex] -= 1
            short.removeLast()
            #expect(!vector.decodes(short), "\(vector.label) takes a truncated packet: \(Hex.string(short))")
        }
    }

    /// Out-of-range values are refused by name (a sample of the checks the decoders make).
    @Test func outOfRangeValuesAreRefused() {
        #expect(throws: DecodeError.invalidValue(field: "Advertising_Data_Length", value: 32)) {
            try LESetAdvertisingData.decode([32] + [UInt8](repeating: 0, count: 31))
        }
        #expect(throws: DecodeError.invalidValue(field: "Connection_Handle", value: 0x1000)) {
            try LEEnableEncryption.decode([0x00, 0x10] + [UInt8](repeating: 0, count: 26))
        }
        #expect(throws: DecodeError.invalidValue(field: "Initiating_PHYs", value: 0)) {
            try LEExtendedCreateConnection.decode([0, 0, 0, 1, 2, 3, 4, 5, 6, 0])
        }
        #expect(throws: DecodeError.invalidValue(field: "Scanning_PHYs", value: 2)) {
            try LESetExtendedScanParameters.decode([0, 0, 2, 0, 0x10, 0, 0x10, 0])
        }
        #expect(throws: DecodeError.invalidValue(field: "Num_Reports", value: 0)) {
            try LEAdvertisingReport.decode([0])
        }
        #expect(throws: DecodeError.invalidValue(field: "Encryption_Enabled", value: 3)) {
            try EncryptionChange.decode([0, 1, 0, 3])
        }
        #expect(throws: DecodeError.invalidValue(field: "Num_Sets", value: 0)) {
            try LESetExtendedAdvertisingEnable.decode([1, 0])
        }
    }
}
