import BLEHost
import ReflectorFirmware

/// The HCI event codecs a host parses: the event packet, Command Complete and Status, Read
/// Remote Version Information Complete, every LE CS event, the capabilities return
/// parameters, and Subevent Result / Continue events through `SubeventResultReassembler` and
/// `ProcedureAssembler`; and the general LE events of `BLEHost/HCI/Events` (with the Status +
/// Connection_Handle return parameters).
///
/// Input: one flag octet (bit 0 the steps' role is the initiator's, bit 1 mode-1/3 steps carry
/// PCTs, bit 2 capabilities in the v2 layout), then events as `length (2 octets, LE) | octets`.
///
/// Checks: event packets, Command Complete, Command Status, Read Remote Version Information
/// Complete, Encryption Change, Encryption Key Refresh Complete, Number Of Completed Packets and
/// Status + Connection_Handle returns re-encode to the very same octets; the typed LE CS events
/// and the general LE Meta events (connection, advertising reports, LTK request, remote
/// features, data length) re-encode to
/// octets that decode to the same value (not the same octets: ignored and RFU fields are written
/// as 0); a reassembled subevent is the first event's header with the steps of all events since
/// it, at most 160.
enum HCIEventsTarget {
    static let target = FuzzTarget("hci-events", "HCI event packets into every event decoder, the subevent reassembler and the procedure assembler",
                                   seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        let flags = input.byte()
        let role: CSRole = flags & 1 != 0 ? .initiator : .reflector
        let sequencePCT = flags & 2 != 0
        var reassembler = SubeventResultReassembler()
        var assembler = ProcedureAssembler(role: role)
        var pendingSteps: [SubeventStep]?
        for octets in input.chunks() {
            guard let event = try? HCIPacket(event: octets) else { continue }
            require(event.encode() == octets, "event packet does not re-encode to its bytes")
            if let e = try? CommandCompleteEvent.decode(packet: event) {
                require(e.encode() == event.parameters, "Command Complete re-encodes to other octets")
                if let r = try? StatusConnectionHandleReturn.decode(e.returnParameters) {
                    require(r.encode() == e.returnParameters, "Status + Connection_Handle return re-encodes to other octets")
                }
                if let r = try? LECSLocalCapabilitiesReturn.decode(e.returnParameters, v2: flags & 4 != 0) {
                    let again = Result { () throws(DecodeError) in try LECSLocalCapabilitiesReturn.decode(r.encode(), v2: flags & 4 != 0) }
                    require((try? again.get()) == r,
                            "capabilities return does not decode from its encoding: \(hex(e.returnParameters)) -> \(hex(r.encode())): \(r) -> \(again)")
                }
            }
            if let e = try? CommandStatusEvent.decode(packet: event) {
                require(e.encode() == event.parameters, "Command Status re-encodes to other octets")
            }
            if event.eventCode == ReadRemoteVersionInformationComplete.eventCode, let e = try? ReadRemoteVersionInformationComplete.decode(event.parameters) {
                require(e.encode() == event.parameters, "Read Remote Version Information Complete re-encodes to other octets")
            }
            check(event, LECSSecurityEnableComplete.self)
            check(event, LECSConfigComplete.self)
            check(event, LECSReadRemoteFAETableComplete.self)
            check(event, LECSProcedureEnableComplete.self)
            check(event, LECSTestEndComplete.self)
            check(event, LEConnectionComplete.self)
            check(event, LEEnhancedConnectionComplete.self)
            check(event, LEEnhancedConnectionCompleteV2.self)
            check(event, LEAdvertisingReport.self)
            check(event, LEExtendedAdvertisingReport.self)
            check(event, LELongTermKeyRequest.self)
            check(event, LEReadRemoteFeaturesComplete.self)
            check(event, LEDataLengthChange.self)
            exact(event, EncryptionChange.self)
            exact(event, EncryptionKeyRefreshComplete.self)
            exact(event, NumberOfCompletedPackets.self)
            if let e = try? LECSReadRemoteSupportedCapabilitiesComplete.decode(packet: event) {
                require(e.eventCode == event.leSubeventCode, "remote capabilities layout disagrees with its subevent code")
                require((try? LECSReadRemoteSupportedCapabilitiesComplete.decode(packet: HCIPacket(leSubevent: e.eventCode, body: e.encode()))) == e,
                        "remote capabilities complete does not decode from its encoding")
            }
            if let e = try? SubeventResultEvent.decode(packet: event, role: role, sequencePCT: sequencePCT) {
                require((try? SubeventResultEvent.decode(packet: e.packet, role: role, sequencePCT: sequencePCT)) == e,
                        "Subevent Result does not decode from its encoding")
                switch e {
                case .result: pendingSteps = e.steps
                case .continuation: pendingSteps = pendingSteps.map { $0 + e.steps }
                }
                do {
                    if let whole = try reassembler.add(e) {
                        require(whole.steps == pendingSteps && whole.steps.count <= SubeventResultReassembler.maxSteps, "reassembled steps are not those fed")
                        pendingSteps = nil
                    }
                } catch {
                    pendingSteps = nil
                }
            }
            _ = try? assembler.add(event)
        }
    }

    /// An event whose every field is significant re-encodes to the very same octets.
    static func exact<E: HCIEvent>(_ event: HCIPacket, _ type: E.Type) {
        guard event.eventCode == E.eventCode, let e = try? E.decode(packet: event) else { return }
        require(e.encode() == event.parameters, "\(E.self) re-encodes to other octets: \(hex(event.parameters)) -> \(hex(e.encode()))")
    }

    static func check<E: LEMetaSubevent>(_ event: HCIPacket, _ type: E.Type) {
        guard let e = try? E.decode(packet: event) else { return }
        require((try? E.decode(packet: e.packet)) == e, "\(E.self) does not decode from its own encoding: \(hex(event.parameters)) -> \(hex(e.packet.parameters))")
    }

    static func seeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for traffic in SeedTraffic.loopbacks {
            // The phone's events (initiator steps) and the accessory's (reflector steps), in order.
            let phone = traffic.initiatorCapture.filter { $0.packet.indicator == .event }.map(\.packet.bytes)
            let accessory = traffic.reflectorCapture.filter { $0.packet.indicator == .event }.map(\.packet.bytes)
            out.append([1] + FuzzInput.chunks(phone))
            out.append([0] + FuzzInput.chunks(accessory))
        }
        return out
    }
}
