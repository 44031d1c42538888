/// Why RAS ranging-data segments (RAS 1.0 §3.2.1.1) could not be joined. After any of these the
/// reassembler is idle and the offending segment was not consumed.
public enum RASReassemblyError: Error, Equatable, Sendable {
    /// A segment without even the Segmentation Header.
    case emptySegment
    /// A segment that is not a first segment arrived with no body in progress.
    case missingFirstSegment
    /// A segment's counter is not the previous one plus 1 (mod 64): a segment went missing or
    /// came out of order.
    case unexpectedCounter(expected: UInt8, found: UInt8)
    /// A first segment arrived before the previous body's last segment.
    case missingLastSegment
    /// The body grew beyond `maxBodyLength`.
    case bodyTooLong
}
