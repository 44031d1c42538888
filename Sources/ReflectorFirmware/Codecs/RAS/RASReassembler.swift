import WireFormat

/// Joins RAS ranging-data segments back into the body (RAS 1.0 §3.2.1.1): starts at a first
/// segment, requires each following counter to be the previous plus 1 (mod 64), and finishes at
/// the last segment. On any error the partial body is dropped and the reassembler goes idle
/// without consuming the segment, so feeding that segment again starts over cleanly when it is
/// a first segment.
public struct RASReassembler: FragmentReassembler, Sendable {
    /// Upper bound for one procedure's body (nRF `ras.h`: 4 + 32·8 + 256·(1 + max step length)).
    public var maxBodyLength: Int
    public private(set) var body: [UInt8] = []
    public private(set) var inProgress = false
    private var nextCounter: UInt8 = 0

    public init(maxBodyLength: Int = 4 + 32 * 8 + 256 * (1 + 35)) { self.maxBodyLength = maxBodyLength }

    /// Feeds one notification; returns the body when `segment` is its last segment.
    public mutating func add(_ segment: some Collection<UInt8>) throws(RASReassemblyError) -> [UInt8]? {
        guard let first = segment.first else {
            reset()
            throw .emptySegment
        }
        let h = RASSegmentationHeader(octet: first)
        if h.isFirst {
            if inProgress {
                reset()
                throw .missingLastSegment
            }
            body = []
            inProgress = true
        } else {
            guard inProgress else { throw .missingFirstSegment }
            guard h.counter == nextCounter else {
                let expected = nextCounter
                reset()
                throw .unexpectedCounter(expected: expected, found: h.counter)
            }
        }
        if body.count + segment.count - 1 > maxBodyLength {
            reset()
            throw .bodyTooLong
        }
        body.append(contentsOf: segment.dropFirst())
        nextCounter = (h.counter + 1) & 0x3F
        if h.isLast {
            let done = body
            reset()
            return done
        }
        return nil
    }

    /// The body's octets so far, nil when no body is in progress.
    public var progress: Int? { inProgress ? body.count : nil }

    /// `add` as a `FragmentReassembler`: one notification's octets.
    public mutating func reassemble(_ fragment: [UInt8]) throws(RASReassemblyError) -> [UInt8]? { try add(fragment) }

    public mutating func reset() {
        body = []
        inProgress = false
        nextCounter = 0
    }
}
