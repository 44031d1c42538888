/// The one JSON writer of the tool: every JSON the commands print (loopback, nearby and tdoa
/// JSON Lines, estimate, plan, check, ports, tdoa plan, the summaries) is written through it.
///
/// It streams UTF-8 into a byte buffer, with no intermediate `String` per value, so `plan
/// --json` can write a 13 KB plan in a few microseconds; a document larger than the buffer is
/// flushed to its sink as it goes (`flushIfFull`). It writes what RFC 8259 allows and nothing
/// else: strings with every control character below U+0020, `"` and `\` escaped (§7); integers
/// as they are; doubles with a fixed number of decimals per field (`FixedDecimal`, the digits
/// `%.Nf` printed), and NaN and ±infinity as null. The separators are `, ` and `: ` (`.spaced`,
/// the form the tool has always printed) or `,` and `:` (`.compact`, the form of `ports`).
///
/// Foundation's JSONEncoder cannot keep the tool's layout (fixed decimals per field, the
/// spacing, key order) byte for byte, nor reach the plan rate: hence this writer.
public struct JSONWriter {
    public enum Style: Sendable {
        /// `{"a": 1, "b": [1, 2]}`
        case spaced
        /// `{"a":1,"b":[1,2]}`
        case compact
    }

    public var bytes: [UInt8]
    public let style: Style
    /// Where `flushIfFull` sends the bytes written so far; nil keeps everything in `bytes`.
    let sink: (any ByteSink)?
    /// Nesting depth: 0 at the top level.
    private var depth = 0
    /// Bit d set: the container at depth d already holds a member (the next needs a comma).
    private var hasMember: UInt64 = 0
    /// A key was just written: the value that follows takes no separator.
    private var afterKey = false

    public static let flushThreshold = 1 << 16

    public init(style: Style = .spaced, bytes: [UInt8] = [], sink: (any ByteSink)? = nil) {
        self.style = style
        self.bytes = bytes
        self.sink = sink
    }

    // MARK: Structure

    public mutating func beginObject() {
        beforeValue()
        bytes.append(UInt8(ascii: "{"))
        open()
    }

    public mutating func endObject() {
        close()
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func beginArray() {
        beforeValue()
        bytes.append(UInt8(ascii: "["))
        open()
    }

    public mutating func endArray() {
        close()
        bytes.append(UInt8(ascii: "]"))
    }

    /// An object value: `body` writes its members.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        beginObject()
        body(&self)
        endObject()
    }

    /// An array value: `body` writes its elements.
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        beginArray()
        body(&self)
        endArray()
    }

    /// A member's key (a literal of the tool: written as it is, so it must need no escaping).
    public mutating func key(_ name: StaticString) {
        memberSeparator()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        keySeparator()
    }

    /// A member's key from data (escaped).
    public mutating func key(_ name: String) {
        memberSeparator()
        appendQuoted(name)
        keySeparator()
    }

    // MARK: Values

    public mutating func value(_ v: some BinaryInteger) {
        beforeValue()
        if v < 0 { bytes.append(UInt8(ascii: "-")) }
        FixedDecimal.appendDecimal(UInt64(v.magnitude), to: &bytes)
    }

    /// A double with exactly `decimals` digits after the point; null when it is not finite.
    public mutating func value(_ v: Double, decimals: Int) {
        beforeValue()
        if !FixedDecimal.append(v, decimals: decimals, to: &bytes) { appendLiteral("null") }
    }

    public mutating func value(_ s: String) {
        beforeValue()
        appendQuoted(s)
    }

    public mutating func value(_ b: Bool) {
        beforeValue()
        appendLiteral(b ? "true" : "false")
    }

    public mutating func null() {
        beforeValue()
        appendLiteral("null")
    }

    /// `v` as a string of exactly `digits` upper-case hexadecimal digits ("6C376AB8").
    public mutating func hexValue(_ v: UInt64, digits: Int) {
        beforeValue()
        bytes.append(UInt8(ascii: "\""))
        for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
            bytes.append(Self.hexDigits[Int((v >> UInt64(shift)) & 0xF)])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
    static let lowerHexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    // MARK: Members

    public mutating func field(_ name: StaticString, _ v: some BinaryInteger) {
        key(name)
        value(v)
    }

    /// An integer member, null when nil.
    public mutating func field<T: BinaryInteger>(_ name: StaticString, _ v: T?) {
        key(name)
        if let v { value(v) } else { null() }
    }

    /// A fixed-decimal member, null when nil or not finite.
    public mutating func field(_ name: StaticString, _ v: Double?, decimals: Int) {
        key(name)
        if let v { value(v, decimals: decimals) } else { null() }
    }

    /// A string member, null when nil.
    public mutating func field(_ name: StaticString, _ s: String?) {
        key(name)
        if let s { value(s) } else { null() }
    }

    public mutating func field(_ name: StaticString, _ b: Bool) {
        key(name)
        value(b)
    }

    public mutating func field(_ name: StaticString, object body: (inout JSONWriter) -> Void) {
        key(name)
        object(body)
    }

    public mutating func field(_ name: StaticString, array body: (inout JSONWriter) -> Void) {
        key(name)
        array(body)
    }

    /// An array member of fixed-decimal numbers.
    public mutating func field(_ name: StaticString, _ values: [Double], decimals: Int) {
        key(name)
        beginArray()
        for v in values { value(v, decimals: decimals) }
        endArray()
    }

    /// An array member of strings.
    public mutating func field(_ name: StaticString, _ values: [String]) {
        key(name)
        beginArray()
        for v in values { value(v) }
        endArray()
    }

    /// Ends a JSON Lines record.
    public mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Sends the bytes written so far to the sink once they pass `flushThreshold`.
    public mutating func flushIfFull() {
        guard bytes.count >= Self.flushThreshold, let sink else { return }
        sink.write(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    // MARK: Internals

    private mutating func open() {
        depth += 1
        precondition(depth < 64, "JSONWriter: nesting deeper than 63 levels")
        hasMember &= ~(1 << UInt64(depth))
    }

    private mutating func close() {
        depth -= 1
        afterKey = false
    }

    /// Before a value: the comma between array elements (none after a key, none at the top).
    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        memberSeparator()
    }

    private mutating func memberSeparator() {
        let bit: UInt64 = 1 << UInt64(depth)
        if hasMember & bit != 0 {
            bytes.append(UInt8(ascii: ","))
            if style == .spaced { bytes.append(UInt8(ascii: " ")) }
        } else {
            hasMember |= bit
        }
    }

    private mutating func keySeparator() {
        bytes.append(UInt8(ascii: ":"))
        if style == .spaced { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    private mutating func appendLiteral(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A string literal, escaped per RFC 8259 §7: `"` and `\`, and every control character
    /// below U+0020 (the short forms \b \f \n \r \t, else \u00XX); everything else, non-ASCII
    /// included, as its UTF-8 bytes.
    mutating func appendQuoted(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var start = 0
            for (i, b) in utf8.enumerated() where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i]))
                bytes.append(UInt8(ascii: "\\"))
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(b)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    // \u00XX in lower case, as \u001f.
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    bytes.append(Self.lowerHexDigits[Int(b >> 4)])
                    bytes.append(Self.lowerHexDigits[Int(b & 0xF)])
                }
                start = i + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
