import WireFormat

/// One event of a subevent's report: the opening LE CS Subevent Result or a following
/// LE CS Subevent Result Continue (Core 6.0 Vol 4 Part E §7.7.65.44–45), as the splitter emits
/// and the reassembler consumes them.
public enum SubeventResultEvent: Sendable, Equatable {
    case result(LECSSubeventResult)
    case continuation(LECSSubeventResultContinue)

    public var packet: HCIPacket {
        switch self {
        case let .result(e): return e.packet
        case let .continuation(e): return e.packet
        }
    }

    public var steps: [SubeventStep] {
        switch self {
        case let .result(e): return e.steps
        case let .continuation(e): return e.steps
        }
    }

    /// Parses an LE Meta 0x31 or 0x32 packet (`.unexpectedCode` for anything else).
    public static func decode(packet: HCIPacket, role: CSRole, sequencePCT: Bool = false) throws(DecodeError) -> SubeventResultEvent {
        switch packet.leSubeventCode {
        case LECSSubeventResult.subeventCode?:
            return .result(try LECSSubeventResult.decode(packet: packet, role: role, sequencePCT: sequencePCT))
        case LECSSubeventResultContinue.subeventCode?:
            return .continuation(try LECSSubeventResultContinue.decode(packet: packet, role: role, sequencePCT: sequencePCT))
        default:
            throw .unexpectedCode(expected: Int(LECSSubeventResult.subeventCode), found: Int(packet.leSubeventCode ?? packet.eventCode ?? packet.indicator.rawValue))
        }
    }
}
