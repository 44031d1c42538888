/// The one JSON writer of the tool: every JSON the commands print (loopback, nearby and tdoa
/// JSON Lines, estimate, plan, check, ports, tdoa plan, the summaries) is written through it.
///
/// It streams UTF-8 into a byte buffer through a raw pointer, with no intermediate `String`
/// per value, so `plan --json` writes a 13 KB plan in a few microseconds; a document larger
/// than the buffer is flushed to its sink as it goes (`flushIfFull`). It writes what RFC 8259
/// allows and nothing else: strings with every control character below U+0020, `"` and `\`
/// escaped (§7); integers as they are; doubles with a fixed number of decimals per field
/// (`FixedDecimal`, the digits `%.Nf` printed) or, for raw data, in the shortest form that
/// reads back exactly (`value(roundTrip:)`), and NaN and ±infinity as null. The separators
/// are `, ` and `: ` (`.spaced`, the form the tool has always printed) or `,` and `:`
/// (`.compact`, the form of `ports`).
///
/// Foundation's JSONEncoder cannot keep the tool's layout (fixed decimals per field, the
/// spacing, key order) byte for byte, nor reach the plan rate: hence this writer.
///
/// A writer is used through `inout` while it writes (`CommandOutput.json`) and not copied: it
/// mirrors its buffer's pointer and count, and `commit()` hands them back.
public struct JSONWriter {
    public enum Style: Sendable {
        /// `{"a": 1, "b": [1, 2]}`
        case spaced
        /// `{"a":1,"b":[1,2]}`
        case compact
    }

    public let style: Style
    let buffer: ByteBuffer
    /// Where `flushIfFull` sends the bytes written so far; nil keeps everything in the buffer.
    let sink: (any ByteSink)?
    private var base: UnsafeMutablePointer<UInt8>
    private var count: Int
    private var capacity: Int
    /// Nesting depth: 0 at the top level.
    private var depth = 0
    /// Bit d set: the container at depth d already holds a member (the next needs a comma).
    private var hasMember: UInt64 = 0
    /// A key was just written: the value that follows takes no separator.
    private var afterKey = false

    public static let flushThreshold = 1 << 16

    /// A writer appending to `buffer` (a fresh one by default).
    public init(style: Style = .spaced, buffer: ByteBuffer = ByteBuffer(), sink: (any ByteSink)? = nil) {
        self.style = style
        self.buffer = buffer
        self.sink = sink
        base = buffer.base
        count = buffer.count
        capacity = buffer.capacity
    }

    /// Hands the bytes written back to the buffer (the writer may go on afterwards).
    public mutating func commit() { buffer.count = count }

    /// A copy of what the buffer holds, written bytes included.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    // MARK: Structure

    public mutating func beginObject() { begin(UInt8(ascii: "{")) }
    public mutating func endObject() { end(UInt8(ascii: "}")) }
    public mutating func beginArray() { begin(UInt8(ascii: "[")) }
    public mutating func endArray() { end(UInt8(ascii: "]")) }

    private mutating func begin(_ opening: UInt8) {
        beforeValue()
        byte(opening)
        open()
    }

    private mutating func end(_ closing: UInt8) {
        close()
        byte(closing)
    }

    /// An object value: `body` writes its members.
    @inline(__always)
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        beginObject()
        body(&self)
        endObject()
    }

    /// A document of one named object, `{"name": {...}}` (every command's summary line):
    /// `body` writes the inner object's members.
    public mutating func document(_ name: StaticString, _ body: (inout JSONWriter) -> Void) {
        object { j in j.field(name, object: body) }
    }

    /// An array value: `body` writes its elements.
    @inline(__always)
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        beginArray()
        body(&self)
        endArray()
    }

    /// A member's key (a literal of the tool: written as it is, so it must need no escaping).
    @inline(__always)
    public mutating func key(_ name: StaticString) {
        ensure(name.utf8CodeUnitCount + 6)
        memberSeparator()
        quoted(name)
        base[count] = UInt8(ascii: ":")
        count += 1
        if style == .spaced {
            base[count] = UInt8(ascii: " ")
            count += 1
        }
        afterKey = true
    }

    /// A member's key from data (escaped).
    public mutating func key(text name: String) {
        ensure(2)
        memberSeparator()
        appendQuoted(name)
        ensure(2)
        byte(UInt8(ascii: ":"))
        if style == .spaced { byte(UInt8(ascii: " ")) }
        afterKey = true
    }

    // MARK: Values

    @inline(__always)
    public mutating func value(_ v: some BinaryInteger) {
        ensure(24)
        beforeValue()
        if v < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        count += FixedDecimal.writeDecimal(UInt64(v.magnitude), to: base + count)
    }

    /// A double with exactly `decimals` digits after the point; null when it is not finite.
    public mutating func value(_ v: Double, decimals: Int) {
        ensure(FixedDecimal.fastPathLength)
        beforeValue()
        if let n = FixedDecimal.write(v, decimals: decimals, to: base + count) {
            count += n
        } else if v.isFinite {
            // Too large for the fast path: the exact digits `%.Nf` prints.
            appendBytes(FixedDecimal.text(v, decimals).utf8)
        } else {
            appendLiteral("null")
        }
    }

    /// A double in the shortest form that reads back as the same double (Swift's description:
    /// "0.1", "1e-05", "-0.0"; all JSON numbers), null when it is not finite. For raw data
    /// that must survive a round trip through a file bit for bit (`sweep`'s shards), where
    /// fixed decimals would round.
    public mutating func value(roundTrip v: Double) {
        guard v.isFinite else {
            null()
            return
        }
        ensure(32)
        beforeValue()
        appendBytes(v.description.utf8)
    }

    public mutating func value(_ s: String) {
        ensure(2)
        beforeValue()
        appendQuoted(s)
    }

    public mutating func value(_ b: Bool) {
        ensure(8)
        beforeValue()
        appendLiteral(b ? "true" : "false")
    }

    public mutating func null() {
        ensure(8)
        beforeValue()
        appendLiteral("null")
    }

    /// `v` as a string of exactly `digits` (at most 16) upper-case hexadecimal digits ("6C376AB8").
    @inline(__always)
    public mutating func hexValue(_ v: UInt64, digits: Int) {
        ensure(digits + 4)
        beforeValue()
        let hex = Self.hexDigits.utf8Start
        base[count] = UInt8(ascii: "\"")
        var shift = (digits - 1) * 4
        var p = base + count + 1
        while shift >= 0 {
            p.pointee = hex[Int((v >> UInt64(shift)) & 0xF)]
            p += 1
            shift -= 4
        }
        p.pointee = UInt8(ascii: "\"")
        count += digits + 2
    }

    /// A string value that needs no escaping (a literal of the tool: "mode0", "none").
    @inline(__always)
    public mutating func value(literal: StaticString) {
        ensure(literal.utf8CodeUnitCount + 4)
        beforeValue()
        quoted(literal)
    }

    /// `"text"` for a literal that needs no escaping (room already ensured).
    @inline(__always)
    private mutating func quoted(_ text: StaticString) {
        base[count] = UInt8(ascii: "\"")
        (base + count + 1).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count += text.utf8CodeUnitCount + 1
        base[count] = UInt8(ascii: "\"")
        count += 1
    }

    static let hexDigits: StaticString = "0123456789ABCDEF"
    static let lowerHexDigits: StaticString = "0123456789abcdef"

    // MARK: Members

    @inline(__always)
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

    // MARK: Fixed-shape records

    /// A later member of the current object written in one piece: `prefix` is the separator,
    /// the key and the colon as the spaced style writes them (`, "subevent": `). For records
    /// of a fixed shape written in a hot loop (plan steps), where the general calls' separator
    /// bookkeeping is most of the cost; the object must already hold a member.
    @inline(__always)
    public mutating func member(_ prefix: StaticString, _ v: some BinaryInteger) {
        memberPrefix(prefix, room: 24)
        if v < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        count += FixedDecimal.writeDecimal(UInt64(v.magnitude), to: base + count)
    }

    /// As `member(_:_:)`, with a string literal of the tool as the value.
    @inline(__always)
    public mutating func member(_ prefix: StaticString, literal: StaticString) {
        memberPrefix(prefix, room: literal.utf8CodeUnitCount + 2)
        base[count] = UInt8(ascii: "\"")
        (base + count + 1).update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
        count += literal.utf8CodeUnitCount + 1
        base[count] = UInt8(ascii: "\"")
        count += 1
    }

    /// As `member(_:_:)`, with `v` as a string of `digits` upper-case hexadecimal digits.
    @inline(__always)
    public mutating func member(_ prefix: StaticString, hex v: UInt64, digits: Int) {
        memberPrefix(prefix, room: 0)
        afterKey = true
        hexValue(v, digits: digits)
    }

    @inline(__always)
    private mutating func memberPrefix(_ prefix: StaticString, room: Int) {
        assert(style == .spaced && depth > 0 && hasMember & (1 << UInt64(depth)) != 0, "member(_:) follows a first member of the spaced style")
        ensure(prefix.utf8CodeUnitCount + room)
        (base + count).update(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        count += prefix.utf8CodeUnitCount
    }

    /// Ends a JSON Lines record.
    public mutating func newline() { byte(UInt8(ascii: "\n")) }

    /// Sends the bytes written so far to the sink once they pass `flushThreshold`.
    public mutating func flushIfFull() {
        guard count >= Self.flushThreshold, let sink else { return }
        sink.write(UnsafeRawBufferPointer(start: base, count: count))
        count = 0
    }

    // MARK: Internals

    /// Room for `n` more bytes.
    @inline(__always)
    private mutating func ensure(_ n: Int) {
        if count + n > capacity { grow(n) }
    }

    private mutating func grow(_ n: Int) {
        buffer.count = count
        buffer.reserve(count + n)
        base = buffer.base
        capacity = buffer.capacity
    }

    @inline(__always)
    private mutating func byte(_ b: UInt8) {
        ensure(1)
        base[count] = b
        count += 1
    }

    private mutating func appendBytes(_ bytes: some Collection<UInt8>) {
        ensure(bytes.count)
        for b in bytes {
            base[count] = b
            count += 1
        }
    }

    @inline(__always)
    private mutating func appendLiteral(_ s: StaticString) {
        ensure(s.utf8CodeUnitCount)
        (base + count).update(from: s.utf8Start, count: s.utf8CodeUnitCount)
        count += s.utf8CodeUnitCount
    }

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
    @inline(__always)
    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        memberSeparator()
    }

    /// The comma (and space) before every member but the first; needs 2 bytes of room.
    @inline(__always)
    private mutating func memberSeparator() {
        let bit: UInt64 = 1 << UInt64(depth)
        if hasMember & bit != 0 {
            ensure(2)
            base[count] = UInt8(ascii: ",")
            count += 1
            if style == .spaced {
                base[count] = UInt8(ascii: " ")
                count += 1
            }
        } else {
            hasMember |= bit
        }
    }

    /// A string literal, escaped per RFC 8259 §7: `"` and `\`, and every control character
    /// below U+0020 (the short forms \b \f \n \r \t, else \u00XX); everything else, non-ASCII
    /// included, as its UTF-8 bytes.
    mutating func appendQuoted(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            // At most six bytes per input byte (\u00XX), and the quotes.
            ensure(utf8.count * 6 + 2)
            base[count] = UInt8(ascii: "\"")
            count += 1
            let lower = Self.lowerHexDigits.utf8Start
            for b in utf8 {
                if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") {
                    base[count] = b
                    count += 1
                    continue
                }
                base[count] = UInt8(ascii: "\\")
                count += 1
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): base[count] = b
                case 0x08: base[count] = UInt8(ascii: "b")
                case 0x0C: base[count] = UInt8(ascii: "f")
                case 0x0A: base[count] = UInt8(ascii: "n")
                case 0x0D: base[count] = UInt8(ascii: "r")
                case 0x09: base[count] = UInt8(ascii: "t")
                default:
                    // \u00XX in lower case, as \u001f.
                    base[count] = UInt8(ascii: "u")
                    base[count + 1] = UInt8(ascii: "0")
                    base[count + 2] = UInt8(ascii: "0")
                    base[count + 3] = lower[Int(b >> 4)]
                    base[count + 4] = lower[Int(b & 0xF)]
                    count += 4
                }
                count += 1
            }
            base[count] = UInt8(ascii: "\"")
            count += 1
        }
    }
}
