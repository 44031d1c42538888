/// Why a framed SMP packet read from a console was dropped.
public enum SMPConsoleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The base64 text of the frame does not decode.
    case badBase64
    /// The CRC16/XMODEM over packet and CRC is not zero.
    case badCRC
    /// More octets were decoded than the length prefix announced.
    case lengthMismatch(declared: Int, decoded: Int)
    /// The length prefix exceeds what the decoder accepts, or is too small for a packet.
    case badLength(declared: Int)
    /// A new frame started before the previous one was complete.
    case interrupted
    /// The frame was intact but is not an SMP packet.
    case badPacket(SMPError)

    public var description: String {
        switch self {
        case .badBase64: return "frame is not valid base64"
        case .badCRC: return "frame CRC mismatch"
        case let .lengthMismatch(d, n): return "frame length \(d) but \(n) bytes decoded"
        case .badLength(let d): return "frame length \(d) out of range"
        case .interrupted: return "frame interrupted by a new one"
        case .badPacket(let e): return e.description
        }
    }
}
