/// Reads one HTTP/1.1 request head (RFC 9112 §2–§5) from octets in any chunks, with no I/O:
/// `feed` takes what the socket gave and answers nil (more is needed), the request, or the
/// error. One request per connection: the live view answers it and closes, or streams, so
/// octets after the head (a body, a pipelined request) are not read.
///
/// Strict where leniency lets requests be smuggled or lines grow without end: lines end in
/// CRLF or LF (§2.2), a CR elsewhere, a NUL or another control octet is an error, so is a
/// field line folded onto the next (§5.2) or whitespace before its colon (§5.1); the request
/// line and the header section are bounded, and up to four empty lines before the request
/// line are skipped (§2.2).
public struct HTTPRequestParser: Sendable {
    public enum Event: Equatable, Sendable {
        case request(HTTPRequest)
        case failure(HTTPRequestError)
    }

    public struct Limits: Sendable {
        /// Longest request line, octets without its line ending.
        public var requestLine: Int
        /// Largest header section, octets with the line endings.
        public var headerSection: Int
        /// Most header fields.
        public var fields: Int

        public init(requestLine: Int = 8192, headerSection: Int = 16_384, fields: Int = 64) {
            self.requestLine = requestLine
            self.headerSection = headerSection
            self.fields = fields
        }
    }

    private enum State: Sendable {
        case requestLine
        case fields
        case finished
    }

    public let limits: Limits
    private var state = State.requestLine
    private var line: [UInt8] = []
    /// The previous octet was a CR: only an LF may follow.
    private var afterCR = false
    private var emptyLinesSkipped = 0
    private var headerBytes = 0
    private var request = HTTPRequest(method: "", target: "")
    /// Octets read so far, up to and including the head's last one once it is complete.
    public private(set) var consumed = 0

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Whether the head is complete or failed (further octets are not read).
    public var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// Reads `octets`; returns the request or the error once the head is complete or bad,
    /// nil while more is needed (and ever after the first answer).
    public mutating func feed(_ octets: some Sequence<UInt8>) -> Event? {
        guard !isFinished else { return nil }
        for b in octets {
            consumed += 1
            if let event = step(b) {
                state = .finished
                line = []
                return event
            }
        }
        return nil
    }

    private mutating func step(_ b: UInt8) -> Event? {
        if afterCR {
            afterCR = false
            guard b == lf else { return .failure(.badCharacter) }
            return endOfLine()
        }
        switch b {
        case lf: return endOfLine()
        case cr:
            afterCR = true
            return nil
        case 0x09, 0x20...0x7E, 0x80...0xFF:
            line.append(b)
            if case .requestLine = state, line.count > limits.requestLine { return .failure(.requestLineTooLong) }
            if case .fields = state, headerBytes + line.count > limits.headerSection { return .failure(.headerTooLarge) }
            return nil
        default:
            return .failure(.badCharacter)
        }
    }

    private mutating func endOfLine() -> Event? {
        defer { line.removeAll(keepingCapacity: true) }
        switch state {
        case .requestLine:
            if line.isEmpty {
                emptyLinesSkipped += 1
                return emptyLinesSkipped > 4 ? .failure(.badRequestLine) : nil
            }
            switch Self.requestLine(line) {
            case .success(let r):
                request = r
                state = .fields
                return nil
            case .failure(let e):
                return .failure(e)
            }
        case .fields:
            headerBytes += line.count + 2
            guard headerBytes <= limits.headerSection else { return .failure(.headerTooLarge) }
            if line.isEmpty { return .request(request) }
            guard request.headers.count < limits.fields else { return .failure(.headerTooLarge) }
            guard let field = Self.field(line) else { return .failure(.badHeader) }
            request.headers.append(field)
            return nil
        case .finished:
            return nil
        }
    }

    /// `method SP request-target SP HTTP-version` (§3), one space each.
    static func requestLine(_ line: [UInt8]) -> Result<HTTPRequest, HTTPRequestError> {
        let parts = line.split(separator: space, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenOctet),
              !parts[1].isEmpty, parts[1].allSatisfy({ (0x21...0x7E).contains($0) }) else { return .failure(.badRequestLine) }
        let version = Array(parts[2])
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), version[6] == UInt8(ascii: "."),
              isDigit(version[5]), isDigit(version[7]) else { return .failure(.badRequestLine) }
        guard version[5] == UInt8(ascii: "1"), version[7] <= UInt8(ascii: "1") else { return .failure(.unsupportedVersion) }
        return .success(HTTPRequest(method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
                                    minorVersion: Int(version[7] - UInt8(ascii: "0"))))
    }

    /// `field-name ":" OWS field-value OWS` (§5); nil for a folded line, a bad name or a
    /// space before the colon.
    static func field(_ line: [UInt8]) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0, line[..<colon].allSatisfy(isTokenOctet) else { return nil }
        var value = line[(colon + 1)...]
        while let f = value.first, f == space || f == tab { value.removeFirst() }
        while let l = value.last, l == space || l == tab { value.removeLast() }
        return (String(decoding: line[..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// `tchar` (RFC 9110 §5.6.2).
    static func isTokenOctet(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(b)
        }
    }

    static func isDigit(_ b: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) }
}

private let cr: UInt8 = 0x0D
private let lf: UInt8 = 0x0A
private let space: UInt8 = 0x20
private let tab: UInt8 = 0x09
