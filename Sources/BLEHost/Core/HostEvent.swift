import ReflectorFirmware

/// One event from the controller, decoded once for every component of a host (Core 6.0 Vol 4
/// Part E §7.7), as Zephyr's `event_handler` table and Bumble's `on_hci_packet` do: the three
/// forms of LE Connection Complete normalised into one, command answers paired with the
/// command by the `CommandScheduler`, the CS events as their codecs read them. An event that
/// does not decode is `.malformed`, with what it was meant to be; one no component needs is
/// `.other`.
public enum HostEvent: Sendable, Equatable {
    /// The controller answered the outstanding command (Command Complete or Command Status).
    case commandAnswered(CommandAnswer)
    /// A Command Complete or Status that answers no command of ours (its credits still count).
    case unpairedAnswer(opcode: UInt16)
    case connected(ConnectionEstablished)
    case disconnected(handle: UInt16, reason: HCIStatus)
    case encryptionChanged(handle: UInt16, status: HCIStatus, enabled: Bool)
    case encryptionKeyRefreshed(handle: UInt16, status: HCIStatus)
    case longTermKeyRequested(LELongTermKeyRequest)
    case advertisingReport(LEAdvertisingReport)
    case completedPackets(NumberOfCompletedPackets)
    case remoteVersion(ReadRemoteVersionInformationComplete)
    case csRemoteCapabilities(LECSReadRemoteSupportedCapabilitiesComplete)
    case csSecurityEnabled(LECSSecurityEnableComplete)
    case csConfigured(LECSConfigComplete)
    case csProceduresEnabled(LECSProcedureEnableComplete)
    /// LE CS Subevent Result or Continue: the packet, for the procedure assembler (which
    /// decodes it with the role it assembles for).
    case csSubeventResult(HCIPacket)
    /// Hardware Error (§7.7.16): the controller is in trouble and will want a reset.
    case hardwareError(code: UInt8)
    /// An event that did not decode: which one it claimed to be, and why.
    case malformed(event: String, DecodeError)
    case other(HCIPacket)

    /// Decodes `packet`, pairing a command answer through `scheduler`.
    public static func decode(_ packet: HCIPacket, scheduler: inout CommandScheduler) -> HostEvent {
        guard packet.indicator == .event else { return .other(packet) }
        switch packet.eventCode {
        case HCIEventCode.commandComplete, HCIEventCode.commandStatus:
            if let answer = scheduler.answer(packet) { return .commandAnswered(answer) }
            let opcode = (try? CommandCompleteEvent.decode(packet: packet))?.opcode ?? (try? CommandStatusEvent.decode(packet: packet))?.opcode
            return opcode.map { .unpairedAnswer(opcode: $0) } ?? .malformed(event: "\(CommandCompleteEvent.name)", .truncated(field: "Command_Opcode", needed: 2))
        case DisconnectionComplete.eventCode:
            return decoding(DisconnectionComplete.name) {
                let e = try DisconnectionComplete.decode(packet: packet)
                // A failed Disconnect leaves the link up (the status is not success).
                return e.status == .success ? .disconnected(handle: e.connectionHandle, reason: e.reason) : .other(packet)
            }
        case EncryptionChange.eventCode:
            return decoding(EncryptionChange.name) {
                let e = try EncryptionChange.decode(packet: packet)
                return .encryptionChanged(handle: e.connectionHandle, status: e.status, enabled: e.status == .success && e.encryptionEnabled != 0)
            }
        case EncryptionKeyRefreshComplete.eventCode:
            return decoding(EncryptionKeyRefreshComplete.name) {
                let e = try EncryptionKeyRefreshComplete.decode(packet: packet)
                return .encryptionKeyRefreshed(handle: e.connectionHandle, status: e.status)
            }
        case NumberOfCompletedPackets.eventCode:
            return decoding(NumberOfCompletedPackets.name) { .completedPackets(try NumberOfCompletedPackets.decode(packet: packet)) }
        case ReadRemoteVersionInformationComplete.eventCode:
            return decoding(ReadRemoteVersionInformationComplete.name) { .remoteVersion(try ReadRemoteVersionInformationComplete.decode(packet.parameters)) }
        case HCIEventCode.hardwareError:
            guard let code = packet.parameters.first else { return .malformed(event: "Hardware Error", .truncated(field: "Hardware_Code", needed: 1)) }
            return .hardwareError(code: code)
        default:
            break
        }
        guard let code = packet.leSubeventCode else { return .other(packet) }
        switch code {
        case LESubeventCode.connectionComplete:
            return decoding(LEConnectionComplete.name) { .connected(ConnectionEstablished(try LEConnectionComplete.decode(packet: packet))) }
        case LESubeventCode.enhancedConnectionComplete:
            return decoding(LEEnhancedConnectionComplete.name) { .connected(ConnectionEstablished(try LEEnhancedConnectionComplete.decode(packet: packet))) }
        case LESubeventCode.enhancedConnectionCompleteV2:
            return decoding(LEEnhancedConnectionCompleteV2.name) { .connected(ConnectionEstablished(try LEEnhancedConnectionCompleteV2.decode(packet: packet).connection)) }
        case LESubeventCode.longTermKeyRequest:
            return decoding(LELongTermKeyRequest.name) { .longTermKeyRequested(try LELongTermKeyRequest.decode(packet: packet)) }
        case LESubeventCode.advertisingReport:
            return decoding(LEAdvertisingReport.name) { .advertisingReport(try LEAdvertisingReport.decode(packet: packet)) }
        case LECSReadRemoteSupportedCapabilitiesComplete.subeventCode, LECSReadRemoteSupportedCapabilitiesComplete.v2SubeventCode:
            return decoding(LECSReadRemoteSupportedCapabilitiesComplete.name) { .csRemoteCapabilities(try LECSReadRemoteSupportedCapabilitiesComplete.decode(packet: packet)) }
        case LECSSecurityEnableComplete.subeventCode:
            return decoding(LECSSecurityEnableComplete.name) { .csSecurityEnabled(try LECSSecurityEnableComplete.decode(try packet.leSubeventBody(code))) }
        case LECSConfigComplete.subeventCode:
            // Times outside their tables are kept (`HostCore` says so once): `ControllerDeviation`.
            return decoding(LECSConfigComplete.name) { .csConfigured(try LECSConfigComplete.decodeKeepingUnlistedTimes(try packet.leSubeventBody(code))) }
        case LECSProcedureEnableComplete.subeventCode:
            return decoding(LECSProcedureEnableComplete.name) { .csProceduresEnabled(try LECSProcedureEnableComplete.decode(try packet.leSubeventBody(code))) }
        case LECSSubeventResult.subeventCode, LECSSubeventResultContinue.subeventCode:
            return .csSubeventResult(packet)
        default:
            return .other(packet)
        }
    }

    /// Events whose loss costs nothing but themselves (an advertising report, a credit count
    /// the next one repeats), by the name `.malformed` gives: a host drops them when they do not decode.
    public static func isDroppable(_ name: String) -> Bool {
        name == "\(LEAdvertisingReport.name)" || name == "\(NumberOfCompletedPackets.name)"
    }

    /// `body`'s event, or `.malformed` with the codec's name.
    private static func decoding(_ name: StaticString, _ body: () throws -> HostEvent) -> HostEvent {
        do { return try body() } catch let e as DecodeError { return .malformed(event: "\(name)", e) } catch { return .malformed(event: "\(name)", .invalidValue(field: "Parameters", value: 0)) }
    }
}

/// A connection that came up, whichever of the three LE Connection Complete forms reported it
/// (§7.7.65.1, §7.7.65.10, §7.7.65.10 v2): a failed attempt keeps its status.
public struct ConnectionEstablished: Sendable, Equatable {
    public var status: HCIStatus
    public var handle: UInt16
    /// This side's role on the link.
    public var role: LinkRole
    /// The peer's address; from the Enhanced forms, its identity address when the controller
    /// resolved it (Peer_Address_Type 2 or 3: random when odd).
    public var peer: PairingAddress
    /// Connection interval, 1.25 ms units.
    public var interval: UInt16

    public init(status: HCIStatus = .success, handle: UInt16, role: LinkRole, peer: PairingAddress, interval: UInt16) {
        self.status = status
        self.handle = handle
        self.role = role
        self.peer = peer
        self.interval = interval
    }

    /// The connection any form of LE Connection Complete in `packet` reports; nil for other
    /// packets and for ones that do not decode.
    public init?(packet: HCIPacket) {
        switch packet.leSubeventCode {
        case LESubeventCode.connectionComplete: guard let e = try? LEConnectionComplete.decode(packet: packet) else { return nil }; self.init(e)
        case LESubeventCode.enhancedConnectionComplete: guard let e = try? LEEnhancedConnectionComplete.decode(packet: packet) else { return nil }; self.init(e)
        case LESubeventCode.enhancedConnectionCompleteV2:
            guard let e = try? LEEnhancedConnectionCompleteV2.decode(packet: packet) else { return nil }
            self.init(e.connection)
        default: return nil
        }
    }

    init(_ e: LEConnectionComplete) {
        self.init(status: e.status, handle: e.connectionHandle, role: e.role, peer: PairingAddress(e.peerAddress, random: e.peerAddressType.isRandom),
                  interval: e.interval)
    }

    init(_ e: LEEnhancedConnectionComplete) { self.init(e.connection) }
}

/// A device's role on an LE link, as LE Connection Complete's Role octet carries it.
public enum LinkRole: UInt8, Sendable, Equatable {
    case central = 0
    case peripheral = 1
}
