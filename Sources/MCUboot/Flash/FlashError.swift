/// Why flashing stopped, in one line a user can act on.
public enum FlashError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No valid answer to a request after every attempt.
    case noResponse(command: String, attempts: Int)
    /// The bootloader answered with a non-zero rc.
    case refused(command: String, rc: Int)
    /// The answer was an SMP packet but not the expected content.
    case badResponse(command: String, reason: String)
    /// The bootloader reported an offset past the image.
    case offsetOutOfRange(offset: Int, size: Int)
    /// The bootloader kept answering with the same offset.
    case stalled(offset: Int, attempts: Int)
    /// The serial link failed.
    case link(String)

    public var description: String {
        switch self {
        case let .noResponse(c, n): return "no answer from the bootloader to \(c) after \(n) attempt\(n == 1 ? "" : "s") (is the board in serial recovery mode?)"
        case let .refused(c, rc): return "the bootloader refused \(c): \(MCUmgrResult.name(rc)) (rc \(rc))"
        case let .badResponse(c, r): return "bad answer to \(c): \(r)"
        case let .offsetOutOfRange(o, s): return "the bootloader asked for offset \(o) of a \(s)-byte image"
        case let .stalled(o, n): return "upload stalled at offset \(o) after \(n) attempts"
        case .link(let s): return s
        }
    }
}
