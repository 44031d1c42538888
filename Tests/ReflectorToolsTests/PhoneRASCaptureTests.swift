import Foundation
import BLEHost
import HCITransport
@testable import ReflectorFirmware
@testable import ReflectorTools
@testable import Captures
@testable import CaptureEstimation
import TestSupport
import Testing

/// A phone's own capture of a Ranging Service session: the initiator's HCI events and the ACL
/// traffic that carried the reflector's step data as RAS ranging data (ATT notifications and
/// indications, L2CAP fragments of 27 octets), built with this project's RAS, ATT and L2CAP
/// encoders from a loopback run without inline PCT. The phone's capture alone must give the
/// distances the initiator's and the reflector's captures give together.
struct PhoneRASCaptureTests {
    static let run = EstimateCommandTests.loopback(inlinePCT: false, procedures: 5)
    static let initiatorBytes = EstimateCommandTests.bytes(run.initiator)
    static let reflectorBytes = EstimateCommandTests.bytes(run.reflector)
    static let reflector = CaptureProcedures(bytes: reflectorBytes, defaultRole: .reflector)
    static let initiator = CaptureProcedures(bytes: initiatorBytes)

    // The server's attribute handles.
    static let service: UInt16 = 0x0020, realTime: UInt16 = 0x0023, onDemand: UInt16 = 0x0025, controlPoint: UInt16 = 0x0027
    static let ready: UInt16 = 0x0029, overwritten: UInt16 = 0x002B

    enum Mode { case realTime, onDemand }

    struct Options {
        var mode = Mode.realTime
        var discovery = true
        var attMTU = 23
        /// Procedure index → segment positions the air lost.
        var lose: [Int: Set<Int>] = [:]
        /// Procedure index → segment positions sent twice.
        var repeatSegments: [Int: Set<Int>] = [:]
        /// On demand: lost segments are fetched again with Retrieve Lost Ranging Data Segments.
        var retrieveLost = false
        /// Procedure indices whose data the server overwrote (sent none, indicated Overwritten).
        var overwrite: Set<Int> = []
    }

    /// ACL packets of one ATT PDU on `connection`, fragmented to 27-octet buffers.
    static func acl(_ pdu: ATTPDU, connection: UInt16, direction: BTSnoopDirection) -> [BTSnoopRecord] {
        let frame = L2CAPFrame(channel: L2CAPFrame.attributeProtocol, payload: pdu.encode()).encode()!
        var out: [BTSnoopRecord] = []
        var start = 0
        while start < frame.count {
            let end = min(start + 27, frame.count)
            let flags: UInt16 = start == 0 ? 0b10 : 0b01
            let h = connection | flags << 12
            let bytes = [UInt8(h & 0xFF), UInt8(h >> 8), UInt8(end - start), 0] + frame[start..<end]
            out.append(BTSnoopRecord(packet: HCIPacket(indicator: .aclData, bytes: bytes), direction: direction,
                                     timestamp: BTSnoopTimestamp(virtualMicroseconds: 0)))
            start = end
        }
        return out
    }

    static func discovery(connection: UInt16) -> [BTSnoopRecord] {
        func declaration(_ at: UInt16, _ properties: UInt8, _ uuid: UInt16) -> ATTPDU.HandleValue {
            ATTPDU.HandleValue(handle: at, value: [properties, UInt8((at + 1) & 0xFF), UInt8((at + 1) >> 8), UInt8(uuid & 0xFF), UInt8(uuid >> 8)])
        }
        return acl(.exchangeMTURequest(clientMTU: 247), connection: connection, direction: .hostToController)
            + acl(.exchangeMTUResponse(serverMTU: 247), connection: connection, direction: .controllerToHost)
            + acl(.readByGroupTypeRequest(start: 1, end: 0xFFFF, type: .primaryService), connection: connection, direction: .hostToController)
            + acl(.readByGroupTypeResponse([.init(start: 1, end: 0x0009, value: [0x00, 0x18]), .init(start: service, end: 0x002D, value: [0x5B, 0x18])]),
                  connection: connection, direction: .controllerToHost)
            + acl(.readByTypeRequest(start: service, end: 0x002D, type: .characteristic), connection: connection, direction: .hostToController)
            + acl(.readByTypeResponse([declaration(0x0021, 0x02, RASUUID.features), declaration(realTime - 1, 0x30, RASUUID.realTimeRangingData),
                                       declaration(onDemand - 1, 0x30, RASUUID.onDemandRangingData), declaration(controlPoint - 1, 0x24, RASUUID.controlPoint),
                                       declaration(ready - 1, 0x32, RASUUID.rangingDataReady), declaration(overwritten - 1, 0x32, RASUUID.rangingDataOverwritten)]),
                  connection: connection, direction: .controllerToHost)
    }

    /// The phone's capture: its own records, discovery after the set-up, and each procedure's
    /// ranging data right after the event that completed the phone's own results.
    static func phoneCapture(_ o: Options, run: EstimateCommandTests.Captures = PhoneRASCaptureTests.run) -> [UInt8] {
        let initiatorBytes = EstimateCommandTests.bytes(run.initiator)
        let initiator = CaptureProcedures(bytes: initiatorBytes)
        let reflector = CaptureProcedures(bytes: EstimateCommandTests.bytes(run.reflector), defaultRole: .reflector)
        let records = run.initiator
        let offsets = EstimateCommandTests.recordOffsets(initiatorBytes)
        let connection = initiator.procedures[0].connectionHandle
        var out: [BTSnoopRecord] = []
        let firstProcedureRecord = offsets.firstIndex(of: initiator.procedures[0].offset)!
        for (k, r) in records.enumerated() {
            if k == max(0, firstProcedureRecord - 3), o.discovery { out += discovery(connection: connection) }
            out.append(r)
            guard let index = initiator.procedures.firstIndex(where: { $0.offset == offsets[k] }) else { continue }
            let peer = reflector.procedures[index]
            let counter = peer.procedureCounter & 0x0FFF
            let c = [UInt8(counter & 0xFF), UInt8(counter >> 8)]
            if o.overwrite.contains(index) {
                out += acl(.indication(handle: overwritten, value: c), connection: connection, direction: .controllerToHost)
                continue
            }
            let body = RangingData(selectedTxPower: 0, results: peer.results.subevents).encode()
            let segments = RASSegmenter.segments(of: body, attMTU: o.attMTU)
            let lost = o.lose[index] ?? []
            func send(_ i: Int) -> [BTSnoopRecord] {
                acl(.notification(handle: o.mode == .realTime ? realTime : onDemand, value: segments[i]), connection: connection, direction: .controllerToHost)
            }
            if o.mode == .onDemand {
                out += acl(.indication(handle: ready, value: c), connection: connection, direction: .controllerToHost)
                out += acl(.writeRequest(handle: controlPoint, value: [0x00] + c), connection: connection, direction: .hostToController)
            }
            for i in segments.indices where !lost.contains(i) {
                out += send(i)
                if o.repeatSegments[index]?.contains(i) == true { out += send(i) }
            }
            if o.mode == .onDemand {
                out += acl(.indication(handle: controlPoint, value: [0x00] + c), connection: connection, direction: .controllerToHost)
                if o.retrieveLost, let first = lost.min(), let last = lost.max() {
                    out += acl(.writeRequest(handle: controlPoint, value: [0x02] + c + [UInt8(first), UInt8(last)]), connection: connection, direction: .hostToController)
                    for i in first...last { out += send(i) }
                    out += acl(.indication(handle: controlPoint, value: [0x01] + c + [UInt8(first), UInt8(last)]), connection: connection, direction: .controllerToHost)
                }
                out += acl(.writeRequest(handle: controlPoint, value: [0x01] + c), connection: connection, direction: .hostToController)
            }
        }
        return try! BTSnoopWriter().encodeFile(out)
    }

    static func bothCaptures(_ estimator: EstimatorChoice) -> [ProcedureEstimate] {
        ProcedureEstimation.estimates(initiator, reflector: reflector, inlinePCT: nil, estimator: estimator)
    }

    static func phoneOnly(_ o: Options, _ estimator: EstimatorChoice = .ml) -> [ProcedureEstimate] {
        ProcedureEstimation.estimates(CaptureProcedures(bytes: phoneCapture(o)), reflector: nil, inlinePCT: nil, estimator: estimator)
    }

    @Test(arguments: EstimatorChoice.phaseBased)
    func realTimeGivesTheDistancesOfBothCaptures(_ estimator: EstimatorChoice) {
        let expected = Self.bothCaptures(estimator)
        #expect(expected.count == 5 && expected.allSatisfy { $0.distance != nil })
        for mtu in [23, 247] {
            let phone = Self.phoneOnly(Options(attMTU: mtu), estimator)
            #expect(phone.map(\.distance) == expected.map(\.distance), "MTU \(mtu)")
            #expect(phone.allSatisfy { $0.source == .rasRealTime && $0.ras?.inferred == false && $0.ras?.missing == [] })
        }
    }

    @Test(arguments: EstimatorChoice.phaseBased)
    func onDemandGivesTheDistancesOfBothCaptures(_ estimator: EstimatorChoice) {
        let expected = Self.bothCaptures(estimator)
        let phone = Self.phoneOnly(Options(mode: .onDemand), estimator)
        #expect(phone.map(\.distance) == expected.map(\.distance))
        #expect(phone.allSatisfy { $0.source == .rasOnDemand })
        // A lost segment fetched again, and a segment sent twice: the same distances, both counted.
        let retried = Self.phoneOnly(Options(mode: .onDemand, lose: [1: [3, 4]], repeatSegments: [2: [0]], retrieveLost: true), estimator)
        #expect(retried.map(\.distance) == expected.map(\.distance))
        #expect(retried[1].ras?.repeated == 0 && retried[1].ras?.missing == [] && retried[1].ras?.segments == (retried[0].ras?.segments ?? 0))
        #expect(retried[2].ras?.repeated == 1)
        #expect(retried[2].text.hasSuffix("; RAS on-demand, \(retried[2].ras!.segments) segments (1 sent again))"), "\(retried[2].text)")
    }

    @Test func withoutDiscoveryTheCharacteristicsAreInferredAndSaidSo() {
        let expected = Self.bothCaptures(.ml)
        for mode in [Mode.realTime, .onDemand] {
            let phone = Self.phoneOnly(Options(mode: mode, discovery: false))
            #expect(phone.map(\.distance) == expected.map(\.distance), "\(mode)")
            #expect(phone.allSatisfy { $0.ras?.inferred == true && $0.source == (mode == .realTime ? .rasRealTime : .rasOnDemand) })
            #expect(phone[0].text.contains("characteristic inferred from the ranging headers: no discovery in the capture"))
        }
    }

    @Test func lostSegmentsAndOverwrittenProceduresAreReportedPerProcedure() throws {
        let expected = Self.bothCaptures(.ml)
        let phone = Self.phoneOnly(Options(lose: [2: [5]], overwrite: [3]))
        #expect(phone.count == 5)
        #expect(phone[0].distance == expected[0].distance && phone[1].distance == expected[1].distance && phone[4].distance == expected[4].distance)
        #expect(phone[2].distance == nil)
        #expect(phone[2].ras?.missing == [5])
        #expect(phone[2].reason == "the reflector's ranging data did not come whole: 1 of its ranging-data segments never arrived", "\(phone[2].text)")
        #expect(phone[2].text.hasSuffix("(1 lost))"), "\(phone[2].text)")
        #expect(phone[3].distance == nil)
        #expect(phone[3].ras?.overwritten == true)
        #expect(phone[3].reason?.contains("overwrote its ranging data") == true, "\(phone[3].text)")
        // The JSON names the source and the segments.
        let dir = try TemporaryDirectory("phone-ras")
        let path = try dir.write(Self.phoneCapture(Options(lose: [2: [5]])), name: "phone.btsnoop")
        let json = try EstimateCommand.run([path, "--json"])
        #expect(json.message == nil)
        #expect(json.lines[2].contains(#""source": "ras-real-time", "ras": {"mode": "real-time", "characteristics_inferred": false, "#), "\(json.lines[2])")
        #expect(json.lines[2].contains(#""lost_segments": 1"#))
    }

    /// The same capture through Wireshark's pcapng: the ACL traffic reads the same.
    @Test func phoneCaptureAsPcapng() throws {
        let dir = try TemporaryDirectory("phone-ras-pcapng")
        let btsnoop = try dir.write(Self.phoneCapture(Options(mode: .onDemand)), name: "phone.btsnoop")
        let pcapng = dir.file("phone.pcapng")
        let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/editcap"), ["-F", "pcapng", btsnoop, pcapng], timeout: 60)
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try EstimateCommand.run([pcapng]).output == (try EstimateCommand.run([btsnoop]).output))
        #expect(try EstimateCommand.run([pcapng]).lines.allSatisfy { $0.contains("RAS on-demand") })
        // Link type 187 says no direction: the GATT client's PDUs are told from the server's by
        // what they are (requests, writes and confirmations go client to server).
        let h4 = dir.file("phone-187.pcap")
        let t = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/editcap"), ["-F", "pcap", "-T", "bluetooth-h4", btsnoop, h4], timeout: 60)
        try #require(t.status == 0, "\(t.stderr)")
        #expect(try EstimateCommand.run([h4]).output == (try EstimateCommand.run([btsnoop]).output))
    }

    /// An LE Enhanced Connection Complete (v1) in the capture names the connection's peer.
    @Test func theConnectionEventNamesThePeer() throws {
        var records = BTSnoopReader.parse(Self.phoneCapture(Options())).records
        // Status 0, handle 0x0040, role central, peer address type 1 (random), F0:F1:F2:F3:F4:F6, then the rest.
        let event: [UInt8] = [0x3E, 31, 0x0A, 0x00, 0x40, 0x00, 0x00, 0x01, 0xF6, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0] + [UInt8](repeating: 0, count: 18)
        records.insert(BTSnoopRecord(packet: HCIPacket(indicator: .event, bytes: event), direction: .controllerToHost,
                                     timestamp: BTSnoopTimestamp(virtualMicroseconds: 0)), at: 0)
        let estimates = ProcedureEstimation.estimates(CaptureProcedures(bytes: try BTSnoopWriter().encodeFile(records)), reflector: nil,
                                                      inlinePCT: nil, estimator: .ml)
        #expect(estimates.count == 5 && estimates.allSatisfy { $0.peer?.description == "F0:F1:F2:F3:F4:F6 (random)" })
        #expect(CommandTesting.json { estimates[0].json(&$0) }.contains(#""connection": 64, "peer_address": "F0:F1:F2:F3:F4:F6 (random)""#))
    }

    /// The two example lines of the documentation (docs/commands/estimate.md, the phone's own
    /// capture of a Ranging Service session) are this capture's output.
    @Test func readmeLines() throws {
        let readme = try String(contentsOf: ReadmeTranscriptTests.root.appendingPathComponent("docs/commands/estimate.md"), encoding: .utf8)
        let onDemand = Self.phoneOnly(Options(mode: .onDemand, repeatSegments: [1: [0]]))[1].text
        let lost = Self.phoneOnly(Options(lose: [2: [5]]))[2].text
        #expect(readme.contains("\n" + onDemand + "\n"), "\(onDemand)")
        #expect(readme.contains("\n" + lost + "\n"), "\(lost)")
    }
}

/// Two connections in one phone capture (3 m and 5 m, the same Config_ID and procedure
/// counters): each procedure pairs with its own connection's ranging data, and `--connection`
/// picks one.
struct SeveralConnectionsTests {
    /// The CS events and ACL traffic of a capture moved to connection `handle`.
    static func moved(_ records: [BTSnoopRecord], to handle: UInt16) -> [BTSnoopRecord] {
        records.compactMap { r in
            var b = r.packet.bytes
            switch r.packet.indicator {
            case .aclData where b.count >= 2:
                b[0] = UInt8(handle & 0xFF)
                b[1] = (b[1] & 0xF0) | UInt8(handle >> 8)
            case .event where b.count >= 6 && b[0] == 0x3E:
                switch b[2] {
                case 0x2F, 0x30: (b[4], b[5]) = (UInt8(handle & 0xFF), UInt8(handle >> 8))       // Status, then Connection_Handle
                case 0x31, 0x32: (b[3], b[4]) = (UInt8(handle & 0xFF), (b[4] & 0xF0) | UInt8(handle >> 8))
                default: return nil
                }
            default:
                return nil
            }
            var m = r
            m.packet = HCIPacket(indicator: r.packet.indicator, bytes: b)
            return m
        }
    }

    /// Two sessions one after the other on the same connection handle (an Android
    /// `btsnoop_hci.log` keeps them all): the procedure counters start again, and each session's
    /// procedures pair with its own ranging data, in order.
    @Test func twoSessionsOnOneHandlePairInOrder() throws {
        let first = BTSnoopReader.parse(PhoneRASCaptureTests.phoneCapture(.init())).records
        let run = EstimateCommandTests.loopback(inlinePCT: false, procedures: 5, distance: 5)
        let second = BTSnoopReader.parse(PhoneRASCaptureTests.phoneCapture(.init(), run: run)).records
        let both = try BTSnoopWriter().encodeFile(first + second)
        let estimates = ProcedureEstimation.estimates(CaptureProcedures(bytes: both), reflector: nil, inlinePCT: nil, estimator: .ml)
        #expect(estimates.map(\.procedureCounter) == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
        #expect(estimates.prefix(5).allSatisfy { abs(($0.distance ?? 0) - 3) < 0.1 } && estimates.suffix(5).allSatisfy { abs(($0.distance ?? 0) - 5) < 0.1 },
                "\(estimates.map(\.text))")
    }

    /// LE Connection Complete on `handle` (Core 6.0 Vol 4 Part E §7.7.65.1): a new connection
    /// that reuses the handle.
    static func connectionComplete(handle: UInt16 = 0x0040) -> BTSnoopRecord {
        let params: [UInt8] = [0x01, 0x00, UInt8(handle & 0xFF), UInt8(handle >> 8), 0x00, 0x01, 0xB1, 0x00, 0x00, 0xEE, 0xFF, 0xC0,
                               0x18, 0x00, 0x00, 0x00, 0xC8, 0x00, 0x00]
        return BTSnoopRecord(packet: HCIPacket(indicator: .event, bytes: [0x3E, UInt8(params.count)] + params), direction: .controllerToHost,
                             timestamp: BTSnoopTimestamp(virtualMicroseconds: 0))
    }

    /// Two connections one after the other on one handle, the first of which lost the ranging
    /// data of procedures 1–4 (RootCanal's reflector sends one procedure a connection): those
    /// procedures find no data rather than the second connection's (which gave a wrong
    /// distance, 0.026 m for 0.100 m, before pairing knew the connection apart from the handle).
    @Test func aReusedHandleDoesNotPairAcrossConnections() throws {
        let first = BTSnoopReader.parse(PhoneRASCaptureTests.phoneCapture(.init(overwrite: [1, 2, 3, 4]))).records
        let run = EstimateCommandTests.loopback(inlinePCT: false, procedures: 5, distance: 5)
        let second = BTSnoopReader.parse(PhoneRASCaptureTests.phoneCapture(.init(), run: run)).records
        let both = try BTSnoopWriter().encodeFile([Self.connectionComplete()] + first + [Self.connectionComplete()] + second)
        let capture = CaptureProcedures(bytes: both)
        #expect(capture.procedures.map(\.link) == [1, 1, 1, 1, 1, 2, 2, 2, 2, 2])
        let estimates = ProcedureEstimation.estimates(capture, reflector: nil, inlinePCT: nil, estimator: .ml)
        #expect(abs((estimates[0].distance ?? 0) - 3) < 0.1, "\(estimates.map(\.text))")
        #expect(estimates[1...4].allSatisfy { $0.distance == nil }, "\(estimates.map(\.text))")
        #expect(estimates.suffix(5).allSatisfy { abs(($0.distance ?? 0) - 5) < 0.1 }, "\(estimates.map(\.text))")
        #expect(estimates.allSatisfy { $0.pairingNote == nil })
    }

    /// Every Procedure_Counter 0 on one connection (a controller that does not count): the one
    /// procedure paired with ranging data says its pairing is ambiguous, in the text and the JSON.
    @Test func aRepeatedCounterMakesThePairingAmbiguous() throws {
        let records = BTSnoopReader.parse(PhoneRASCaptureTests.phoneCapture(.init())).records.map { r -> BTSnoopRecord in
            var b = r.packet.bytes
            // LE CS Subevent Result: Connection_Handle 2, Config_ID, Start_ACL_Conn_Event_Counter 2, Procedure_Counter 2.
            guard r.packet.indicator == .event, b.count > 9, b[0] == 0x3E, b[2] == 0x31 else { return r }
            (b[8], b[9]) = (0, 0)
            var m = r
            m.packet = HCIPacket(indicator: .event, bytes: b)
            return m
        }
        let estimates = ProcedureEstimation.estimates(CaptureProcedures(bytes: try BTSnoopWriter().encodeFile(records)), reflector: nil,
                                                      inlinePCT: nil, estimator: .ml)
        #expect(estimates.map(\.procedureCounter) == [0, 0, 0, 0, 0])
        #expect(abs((estimates[0].distance ?? 0) - 3) < 0.1, "\(estimates.map(\.text))")
        let note = "pairing ambiguous: 5 procedures on this connection have counter 0; paired with the reflector's data in capture order"
        #expect(estimates[0].pairingNote == note)
        #expect(estimates[0].text.hasSuffix("; " + note + ")"))
        #expect(CommandTesting.json { estimates[0].json(&$0) }.contains(#""pairing_note": "pairing ambiguous: 5 procedures"#))
    }

    @Test func eachConnectionPairsWithItsOwnRangingData() throws {
        let first = BTSnoopReader.parse(PhoneRASCaptureTests.phoneCapture(.init())).records
        let run = EstimateCommandTests.loopback(inlinePCT: false, procedures: 5, distance: 5)
        let initiator = CaptureProcedures(bytes: EstimateCommandTests.bytes(run.initiator))
        let reflector = CaptureProcedures(bytes: EstimateCommandTests.bytes(run.reflector), defaultRole: .reflector)
        let expected5 = ProcedureEstimation.estimates(initiator, reflector: reflector, inlinePCT: nil, estimator: .ml).map(\.distance)
        let second = BTSnoopReader.parse(PhoneRASCaptureTests.phoneCapture(.init(), run: run)).records
        let both = try BTSnoopWriter().encodeFile(first + Self.moved(second, to: 0x0041))
        let estimates = ProcedureEstimation.estimates(CaptureProcedures(bytes: both), reflector: nil, inlinePCT: nil, estimator: .ml)
        #expect(estimates.count == 10)
        #expect(estimates.filter { $0.connection == 0x0040 }.map(\.distance) == PhoneRASCaptureTests.bothCaptures(.ml).map(\.distance))
        #expect(estimates.filter { $0.connection == 0x0041 }.map(\.distance) == expected5)
        #expect(estimates.filter { $0.connection == 0x0041 }.allSatisfy { abs(($0.distance ?? 0) - 5) < 0.1 })
        let dir = try TemporaryDirectory("connections")
        let path = try dir.write(both, name: "two.btsnoop")
        let picked = try EstimateCommand.run([path, "--connection", "65", "--json"])
        #expect(picked.lines.count == 5)
        #expect(picked.lines.allSatisfy { $0.contains(#""connection": 65"#) })
    }
}

/// Two configurations on one connection (Config_ID 0 at 3 m and 1 at 5 m, the same procedure
/// counters), in the initiator's and the reflector's captures: each procedure pairs with the
/// reflector's procedure of its own Config_ID, and the JSON names it.
struct SeveralConfigurationsTests {
    /// The CS events of a capture moved to Config_ID `id` (other records dropped).
    static func reconfigured(_ records: [BTSnoopRecord], to id: UInt8) -> [BTSnoopRecord] {
        records.compactMap { r in
            var b = r.packet.bytes
            guard r.packet.indicator == .event, b.count >= 7, b[0] == 0x3E else { return nil }
            switch b[2] {
            case 0x2F, 0x30: b[6] = id      // Status, Connection_Handle, then Config_ID
            case 0x31, 0x32: b[5] = id      // Connection_Handle, then Config_ID
            default: return nil
            }
            var m = r
            m.packet = HCIPacket(indicator: .event, bytes: b)
            return m
        }
    }

    @Test func eachConfigurationPairsWithItsOwn() throws {
        let near = EstimateCommandTests.loopback(inlinePCT: false, procedures: 4)
        let far = EstimateCommandTests.loopback(inlinePCT: false, procedures: 4, distance: 5)
        let initiator = CaptureProcedures(bytes: try BTSnoopWriter().encodeFile(near.initiator + Self.reconfigured(far.initiator, to: 1)))
        let reflector = CaptureProcedures(bytes: try BTSnoopWriter().encodeFile(near.reflector + Self.reconfigured(far.reflector, to: 1)),
                                          defaultRole: .reflector)
        #expect(initiator.problems.isEmpty && reflector.problems.isEmpty)
        let estimates = ProcedureEstimation.estimates(initiator, reflector: reflector, inlinePCT: nil, estimator: .ml)
        #expect(estimates.count == 8)
        #expect(estimates.filter { $0.configID == 0 }.allSatisfy { abs(($0.distance ?? 0) - 3) < 0.1 }, "\(estimates.map(\.text))")
        #expect(estimates.filter { $0.configID == 1 }.allSatisfy { abs(($0.distance ?? 0) - 5) < 0.1 }, "\(estimates.map(\.text))")
        #expect(estimates.filter { $0.configID == 1 }.count == 4)
        #expect(CommandTesting.json { estimates[4].json(&$0) }.contains(#""config_id": 1"#))
    }
}
