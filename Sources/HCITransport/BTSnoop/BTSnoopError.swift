import ReflectorFirmware

/// Why a btsnoop file could not be read further, or a record could not be written.
///
/// Every reading error carries the file offset it is about. For a record that offset is where
/// the record starts, which is also the length of the file's valid prefix: the records before it
/// were returned, and truncating the file there repairs it. The one exception is
/// `unknownIndicator`, which points at the bad octet itself (24 octets after its record's start).
public enum BTSnoopError: Error, Sendable, Equatable {
    /// Fewer than 16 octets: no complete file header.
    case truncatedFileHeader(available: Int)
    /// The file does not start with "btsnoop\0".
    case badIdentification
    /// A version other than 1 (at offset 8).
    case unsupportedVersion(UInt32)
    /// A datalink other than 1001 or 1002 (at offset 12), or asked of the writer.
    case unsupportedDatalink(UInt32)
    /// A record header cut short: only `available` of its 24 octets are there.
    case truncatedRecordHeader(offset: Int, available: Int)
    /// A record's data cut short: `includedLength` declared, `available` present.
    case truncatedRecordData(offset: Int, includedLength: UInt32, available: Int)
    /// A record claims to include more octets than the packet had.
    case includedLengthExceedsOriginal(offset: Int, included: UInt32, original: UInt32)
    /// A datalink-1002 record with no octets, so no packet indicator.
    case emptyRecord(offset: Int)
    /// A datalink-1002 record whose first octet (at `offset`) is not an H4 indicator.
    case unknownIndicator(UInt8, offset: Int)
    /// Writing only: a datalink-1001 file cannot say what this packet is (SCO and ISO data have
    /// no flag of their own; a command must be sent and an event received, because the reader
    /// tells them apart by direction).
    case notRepresentable(indicator: HCIPacketIndicator, flags: BTSnoopPacketFlags, datalink: BTSnoopDatalink)

    /// The file offset the error is about, or `nil` for a writing error.
    public var offset: Int? {
        switch self {
        case .truncatedFileHeader, .badIdentification: 0
        case .unsupportedVersion: 8
        case .unsupportedDatalink: 12
        case .truncatedRecordHeader(let offset, _), .truncatedRecordData(let offset, _, _),
             .includedLengthExceedsOriginal(let offset, _, _), .emptyRecord(let offset),
             .unknownIndicator(_, let offset):
            offset
        case .notRepresentable: nil
        }
    }
}
