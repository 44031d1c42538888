/// Why a host starts its controller over (Reset and the whole set-up again): what real boards on
/// a UART do that a pty in a test does not. Bonds survive it; links and procedures in flight do not.
public enum ControllerFault: Sendable, Equatable, CustomStringConvertible {
    /// The controller reported Hardware Error (Core 6.0 Vol 4 Part E §7.7.16) with its own code.
    case hardwareError(code: UInt8)
    /// The H4 stream lost sync (Vol 4 Part A §2: an unknown indicator, an impossible length, a
    /// packet cut short): octets were lost or garbled on the UART, and with them, perhaps, an
    /// event the host waits for.
    case framingLost
    /// An event arrived that does not decode: an octet garbled inside a packet.
    case malformedEvent(String)
    /// The port went away and came back (a USB CDC board that reset or was replugged).
    case portReopened
    /// The board left a command unanswered past the host's timeout.
    case unanswered(opcode: UInt16)
    /// Procedures were enabled but the board reported no results for this many seconds (the
    /// events were lost on the line, or the controller stopped running them without a word).
    case resultsStopped(seconds: Int)

    public var description: String {
        switch self {
        case .hardwareError(let code): "the board reported a hardware error (code 0x\(String(code, radix: 16)))"
        case .framingLost: "octets were lost or garbled on the line (H4 lost sync)"
        case .malformedEvent(let what): "an event from the board did not decode (\(what))"
        case .portReopened: "the port went away and came back"
        case .unanswered(let op): "the board left command 0x\(String(op, radix: 16, uppercase: true)) unanswered"
        case .resultsStopped(let s): "procedures were enabled but the board reported no results for \(s) s"
        }
    }
}
