import ReflectorFirmware

/// A pure, incremental H4 (HCI UART transport) decoder: feed it octets in whatever chunks the
/// serial port delivers, get whole `HCIPacket`s out (Core 6.0 Vol 4 Part A §2; headers and their
/// length fields from Vol 4 Part E §5.4).
///
/// Like a swift-nio `ByteToMessageDecoder`, `next()` returns `nil` for "need more data" and keeps
/// the partial packet buffered; nothing here does I/O, reads a clock or traps, so the same stream
/// fed in any split yields the same packets (the tests check every split).
///
/// **Resynchronisation policy.** The spec treats an unknown indicator or an out-of-range length
/// as loss of sync and leaves recovery to HCI_Reset. The framer's part is to report and keep
/// going: on either error it skips exactly **one octet** (the bad indicator, or the indicator of
/// the over-long packet), counts it in `skippedByteCount`, throws the error with that octet's
/// stream offset, and the next call scans from the following octet. This is Zephyr's h4.c
/// behaviour; unlike Linux's `h4_recv_buf` or Bumble, it loses no more than the bad octet, so a
/// valid packet right behind garbage (for instance after Bumble's zero-octet resync padding) is
/// still found. Direction is not checked (a command from a controller is framed like any other);
/// that belongs to the caller.
public struct H4Framer: StreamDecoder, Sendable {
    /// Linux's `HCI_MAX_FRAME_SIZE` (1028: a 1024-octet ACL buffer plus its 4-octet header).
    /// Large enough for every command, event and SCO packet (at most 258) and for the LE data
    /// lengths controllers report; raise it for controllers with bigger ACL/ISO buffers.
    public static let defaultMaximumPacketLength = 1028

    /// The largest packet accepted, in octets of header plus payload (the indicator excluded).
    /// A header that declares more is treated as loss of sync (`H4FramingError.packetTooLong`).
    public let maximumPacketLength: Int

    /// Octets skipped while resynchronising since the framer was created.
    public private(set) var skippedByteCount = 0
    /// Complete packets returned since the framer was created.
    public private(set) var packetCount = 0

    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// Stream offset of `buffer[0]`.
    private var bufferBaseOffset = 0

    public init(maximumPacketLength: Int = H4Framer.defaultMaximumPacketLength) {
        self.maximumPacketLength = max(0, maximumPacketLength)
    }

    /// Stream offset of the next octet not yet returned as part of a packet or skipped.
    public var streamOffset: Int { bufferBaseOffset + readIndex }

    /// Octets buffered towards a packet that is not complete yet.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Adds received octets to the end of the stream.
    public mutating func append<Chunk: Sequence<UInt8>>(_ chunk: Chunk) {
        compact()
        buffer.append(contentsOf: chunk)
    }

    /// The next complete packet, or `nil` if more octets are needed.
    ///
    /// - Throws: `H4FramingError` after skipping one octet (see the resynchronisation policy);
    ///   call again to continue with the rest of the stream.
    public mutating func next() throws(H4FramingError) -> HCIPacket? {
        guard readIndex < buffer.count else { return nil }
        let first = buffer[readIndex]
        guard let indicator = HCIPacketIndicator(rawValue: first) else {
            let offset = streamOffset
            skipOne()
            throw .unknownIndicator(byte: first, offset: offset)
        }
        let headerStart = readIndex + 1
        let headerEnd = headerStart + indicator.headerLength
        guard headerEnd <= buffer.count,
              let payloadLength = indicator.payloadLength(inHeader: buffer[headerStart..<headerEnd])
        else { return nil }
        let length = indicator.headerLength + payloadLength
        guard length <= maximumPacketLength else {
            let offset = streamOffset
            skipOne()
            throw .packetTooLong(indicator: indicator, length: length, maximum: maximumPacketLength, offset: offset)
        }
        let end = headerStart + length
        guard end <= buffer.count else { return nil }
        let packet = HCIPacket(indicator: indicator, bytes: Array(buffer[headerStart..<end]))
        readIndex = end
        packetCount += 1
        return packet
    }

    /// Appends `chunk` and decodes everything that is complete, errors included, in stream order.
    public mutating func feed<Chunk: Sequence<UInt8>>(_ chunk: Chunk) -> [H4FramerOutput] {
        append(chunk)
        var out: [H4FramerOutput] = []
        while true {
            do {
                guard let packet = try next() else { return out }
                out.append(.packet(packet))
            } catch {
                out.append(.framingError(error))
            }
        }
    }

    /// `feed` as a `StreamDecoder`; its progress is `bufferedByteCount`.
    public mutating func decode(_ chunk: ArraySlice<UInt8>) -> [H4FramerOutput] { feed(chunk) }

    public var progress: Int { bufferedByteCount }

    /// Drops the octets buffered towards an incomplete packet and returns how many there were;
    /// the next octet appended is read as a packet indicator. For a caller that decides a
    /// partial packet has stalled (the framer has no clock): counters and stream offsets stay
    /// continuous, and the dropped octets are not counted as skipped.
    @discardableResult
    public mutating func discardBufferedOctets() -> Int {
        let count = buffer.count - readIndex
        readIndex = buffer.count
        compact()
        return count
    }

    private mutating func skipOne() {
        readIndex += 1
        skippedByteCount += 1
    }

    /// Drops consumed octets from the front of the buffer: always when all are consumed (cheap),
    /// otherwise once they are the larger half, so a long stream costs amortised O(1) per octet.
    private mutating func compact() {
        if readIndex == buffer.count {
            bufferBaseOffset += readIndex
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        } else if readIndex >= 4096, readIndex * 2 >= buffer.count {
            bufferBaseOffset += readIndex
            buffer.removeFirst(readIndex)
            readIndex = 0
        }
    }
}
