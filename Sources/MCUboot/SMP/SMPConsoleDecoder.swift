import WireFormat

/// Turns console bytes, fed in any split, into SMP packets: the inverse of `SMPConsoleEncoder`.
/// Pure and incremental (bytes in, events out; nothing blocks).
///
/// It resynchronises the way mcumgr clients do (smpclient `transport/serial`; MCUboot
/// boot_serial_read_console): console text that is not framed is skipped, a frame starts at
/// 0x06 0x09 (even in the middle of a log line), continuation lines (0x04 0x14) are collected
/// until the length prefix is reached, a stray continuation is ignored. A frame that fails its
/// base64, length or CRC check is reported as an `.error` event and dropped.
public struct SMPConsoleDecoder: StreamDecoder, Sendable {
    /// What one fed chunk produced, in order.
    public enum Event: Equatable, Sendable {
        case packet(SMPPacket)
        case error(SMPConsoleError)
    }

    /// The largest length prefix accepted (MCUboot's reassembly buffer is 512 or 1024 octets;
    /// image lists with hashes stay far below this).
    public var maximumFrameLength: Int
    /// Lines longer than this are console garbage and dropped.
    public var maximumLineLength: Int

    private var line: [UInt8] = []
    private var lineOverflowed = false
    private var inFrame = false
    /// The frame's base64 text so far, and what its first `decodedCharacters` characters (a
    /// multiple of four) decode to: each line's new characters are decoded once, so a frame of
    /// many lines costs time linear in its length (base64 quads decode independently).
    private var text: [UInt8] = []
    private var decoded: [UInt8] = []
    private var decodedCharacters = 0

    public init(maximumFrameLength: Int = 4096, maximumLineLength: Int = 1024) {
        self.maximumFrameLength = maximumFrameLength
        self.maximumLineLength = maximumLineLength
    }

    /// Whether a frame has started and is not yet complete.
    public var isInsideFrame: Bool { inFrame }

    /// `feed` as a `StreamDecoder`; its progress is `isInsideFrame`.
    public mutating func decode(_ chunk: ArraySlice<UInt8>) -> [Event] { feed(chunk) }

    public var progress: Bool { inFrame }

    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for b in bytes {
            if b == 0x0A {
                if !lineOverflowed { endOfLine(&events) }
                line.removeAll(keepingCapacity: true)
                lineOverflowed = false
                continue
            }
            line.append(b)
            let n = line.count
            if n >= 2, (line[n - 2] == 0x06 && b == 0x09) || (line[n - 2] == 0x04 && b == 0x14) {
                // A marker: what came before it on the line was console noise, and a line that
                // overflowed before it ends here (the marker may start the emptied buffer).
                line.removeFirst(n - 2)
                lineOverflowed = false
            } else if n > maximumLineLength {
                // Dropped as garbage, except an octet that may open a marker: the 0x06 of a
                // frame start right at the limit must still meet its 0x09.
                line.removeAll(keepingCapacity: true)
                if b == 0x06 || b == 0x04 { line.append(b) }
                lineOverflowed = true
            }
        }
        return events
    }

    /// Forgets any partial line and frame.
    public mutating func reset() {
        line.removeAll()
        lineOverflowed = false
        inFrame = false
        clearText()
    }

    private mutating func clearText() {
        text.removeAll()
        decoded.removeAll()
        decodedCharacters = 0
    }

    private mutating func endOfLine(_ events: inout [Event]) {
        var content = line[...]
        if content.last == 0x0D { content = content.dropLast() }
        guard content.count >= 2 else { return }
        let marker = (content[content.startIndex], content[content.startIndex + 1])
        let chars = content.dropFirst(2)
        if marker == (0x06, 0x09) {
            if inFrame { events.append(.error(.interrupted)) }
            inFrame = true
            clearText()
            text = Array(chars)
        } else if marker == (0x04, 0x14), inFrame {
            text += chars
        } else {
            return
        }
        complete(&events)
    }

    private mutating func complete(_ events: inout [Event]) {
        guard text.count % 4 == 0 else { return }
        if text.count > decodedCharacters {
            // Padding may only end the whole text: after a padded quad, more text is invalid.
            let padded = decodedCharacters > 0 && text[decodedCharacters - 1] == UInt8(ascii: "=")
            guard !padded, let more = Base64.decode(text[decodedCharacters...]) else { return fail(.badBase64, &events) }
            decoded += more
            decodedCharacters = text.count
        }
        var length = ByteReader(decoded)
        guard let declaredLength = try? length.u16("Length", endianness: .big) else { return }
        let declared = Int(declaredLength)
        guard declared >= SMPPacket.headerSize + 2, declared <= maximumFrameLength else { return fail(.badLength(declared: declared), &events) }
        if decoded.count < declared + 2 { return }
        guard decoded.count == declared + 2 else { return fail(.lengthMismatch(declared: declared, decoded: decoded.count - 2), &events) }
        let body = decoded[2...]
        guard CRC16.xmodem(body) == 0 else { return fail(.badCRC, &events) }
        inFrame = false
        let packet = Array(body.dropLast(2))
        clearText()
        do {
            events.append(.packet(try SMPPacket(decoding: packet)))
        } catch {
            events.append(.error(.badPacket(error)))
        }
    }

    private mutating func fail(_ e: SMPConsoleError, _ events: inout [Event]) {
        inFrame = false
        clearText()
        events.append(.error(e))
    }
}
