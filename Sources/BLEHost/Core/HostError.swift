import ReflectorFirmware

/// Why a host could not set up or run Channel Sounding with a peer.
public enum HostError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A command was refused: which one (its name) and the status the controller gave.
    case commandFailed(command: String, status: HCIStatus)
    /// The event a set-up step awaits reported failure: which one, and its status.
    case procedureFailed(event: InitiatorSetupStep.Awaited, status: HCIStatus)
    /// The accessory does not meet what iOS requires for Channel Sounding.
    case accessoryNotSupported([IOSRequirement])
    /// The controller sent bytes that do not decode.
    case malformedEvent(String)
    /// The controller must be started over (a Hardware Error).
    case controllerFault(ControllerFault)
    /// The controller cannot run Channel Sounding (why).
    case channelSoundingUnavailable(String)
    /// The connection went down (Disconnection Complete), with the reason the controller gave:
    /// LL Response Timeout (0x22) when the peer left a procedure unanswered for 40 s.
    case linkLost(HCIStatus)

    public var description: String {
        switch self {
        case let .commandFailed(c, s): return "\(c) failed: \(s) (0x\(String(s.rawValue, radix: 16)))"
        case let .procedureFailed(e, s): return "\(e.name) reported \(s) (0x\(String(s.rawValue, radix: 16)))"
        case let .accessoryNotSupported(reqs): return "the accessory does not support what Channel Sounding on iPhone requires: " + reqs.map { "\($0.summary)" }.joined(separator: "; ")
        case let .malformedEvent(s): return "malformed event from the controller: \(s)"
        case .controllerFault(let f): return "\(f)"
        case .channelSoundingUnavailable(let why): return "Channel Sounding is unavailable: \(why)"
        case let .linkLost(s): return "the link was lost: \(s) (0x\(String(s.rawValue, radix: 16)))"
        }
    }
}
