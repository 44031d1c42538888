import ReflectorFirmware
import HCITransport

/// `H4Framer` plus the one thing a pure framer cannot know: how long a partial packet has been
/// waiting for its remaining octets. A board that resets mid-packet, or a line that lost a few
/// octets, would otherwise leave the framer waiting forever for a length that never arrives, and
/// every later packet would be swallowed into it.
///
/// Still pure: time comes in as an argument (monotonic milliseconds), so tests step a fake
/// clock instead of sleeping. The rule: if octets of an incomplete packet are buffered and no
/// new octet arrived for `stallTimeoutMilliseconds` or more, the partial packet is dropped
/// (`H4Framer.discardBufferedOctets`) and reported, checked before new octets are appended and
/// whenever the caller asks (`checkStall`, on a read timeout).
public struct TimedH4Framer: Sendable {
    /// One item out of the framer, in stream order.
    public enum Output: Sendable, Equatable {
        case packet(HCIPacket)
        /// Sync lost: the framer skipped one octet (see `H4Framer`'s resynchronisation policy).
        case framingError(H4FramingError)
        /// An incomplete packet of `octets` octets, starting at stream `offset`, waited longer
        /// than the stall timeout and was dropped.
        case stalledPartialPacket(octets: Int, offset: Int)
    }

    public private(set) var framer: H4Framer
    public let stallTimeoutMilliseconds: Int64
    /// Partial packets dropped so far, and their octets.
    public private(set) var droppedPartialPacketCount = 0
    public private(set) var droppedPartialOctetCount = 0
    /// When the last octet arrived while a partial packet was buffered; nil when nothing is.
    private var lastArrival: Int64?

    public init(stallTimeoutMilliseconds: Int, maximumPacketLength: Int = H4Framer.defaultMaximumPacketLength) {
        self.stallTimeoutMilliseconds = Int64(max(0, stallTimeoutMilliseconds))
        framer = H4Framer(maximumPacketLength: maximumPacketLength)
    }

    /// Octets skipped while resynchronising (garbage), as the framer counts them.
    public var skippedByteCount: Int { framer.skippedByteCount }

    /// Octets waiting for the rest of their packet.
    public var bufferedByteCount: Int { framer.bufferedByteCount }

    /// Feeds octets that arrived at `now`: first drops a stalled partial packet, then decodes.
    public mutating func feed(_ bytes: [UInt8], at now: Int64) -> [Output] {
        var out: [Output] = []
        if let stalled = checkStall(at: now) { out.append(stalled) }
        for item in framer.feed(bytes) {
            switch item {
            case .packet(let p): out.append(.packet(p))
            case .framingError(let e): out.append(.framingError(e))
            }
        }
        lastArrival = framer.bufferedByteCount > 0 && !bytes.isEmpty ? now : (framer.bufferedByteCount > 0 ? lastArrival : nil)
        return out
    }

    /// Drops the partial packet, whatever its age: the caller knows sync was lost (a framing
    /// error it answered with HCI Reset), so what the framer holds may be a false start inside a
    /// garbled packet that would swallow the answer. Returns the octets dropped.
    @discardableResult
    public mutating func resynchronize() -> Int {
        lastArrival = nil
        return framer.discardBufferedOctets()
    }

    /// Drops the partial packet if it has waited `stallTimeoutMilliseconds` or more by `now`.
    public mutating func checkStall(at now: Int64) -> Output? {
        guard let since = lastArrival, framer.bufferedByteCount > 0, now - since >= stallTimeoutMilliseconds else { return nil }
        let offset = framer.streamOffset
        let octets = framer.discardBufferedOctets()
        lastArrival = nil
        droppedPartialPacketCount += 1
        droppedPartialOctetCount += octets
        return .stalledPartialPacket(octets: octets, offset: offset)
    }
}
