/// Why a request head could not be read; each maps to the status the server answers with.
public enum HTTPRequestError: Error, Equatable, Sendable {
    /// The request line is longer than the parser's limit (414).
    case requestLineTooLong
    /// The header section is larger than the limit, or has too many fields (431).
    case headerTooLarge
    /// Not `method SP target SP HTTP-version` (400).
    case badRequestLine
    /// An HTTP version other than 1.0 or 1.1 (505).
    case unsupportedVersion
    /// A field line without a colon, with a bad name, an obsolete line folding, or a control
    /// character in its value (400).
    case badHeader
    /// A bare CR, a NUL or another control octet where none may be (400).
    case badCharacter

    /// The status code a server answers the error with.
    public var status: Int {
        switch self {
        case .requestLineTooLong: return 414
        case .headerTooLarge: return 431
        case .unsupportedVersion: return 505
        case .badRequestLine, .badHeader, .badCharacter: return 400
        }
    }
}
