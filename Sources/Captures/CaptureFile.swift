import Foundation
import HCITransport
import ReflectorFirmware
import ToolJSON

/// Reads a btsnoop capture from a file record by record, so that memory follows the record
/// being read, not the file: the 16-octet file header first (a file that is not a capture is
/// refused after 16 octets, whatever its size), then each record's 24-octet header, then its
/// data, which is read only when the file holds it all. The results, the problems and their
/// offsets are those of `BTSnoopReader.parse` on the whole file (which decodes each record
/// here, together with the file header), so a capture reads the same from disk as from memory.
public enum CaptureFile {
    /// The procedures of the capture at `path`; only a file that cannot be opened or read
    /// throws (a malformed capture is read up to the bad spot, which is its last problem).
    public static func read(path: String, defaultRole: CSRole) throws(ToolError) -> CaptureProcedures {
        guard let file = Reader(path: path) else { throw .badFile("\(path): cannot read the file") }
        return try read(file, path: path, defaultRole: defaultRole)
    }

    /// The same from a file already opened (whose first octets may have been looked at and
    /// given back: a pipe cannot be opened twice).
    static func read(_ file: Reader, path: String, defaultRole: CSRole) throws(ToolError) -> CaptureProcedures {
        var capture = CaptureProcedures(defaultRole: defaultRole)
        do throws(Reader.Failure) {
            let header = try file.read(BTSnoopFileHeader.length)
            let parsedHeader = BTSnoopReader.parse(header)
            guard parsedHeader.error == nil, parsedHeader.header != nil else {
                capture.end(parsedHeader.error ?? .truncatedFileHeader(available: header.count))
                return capture
            }
            var offset = BTSnoopFileHeader.length
            while true {
                let recordHeader = try file.read(BTSnoopReader.recordHeaderLength)
                if recordHeader.isEmpty { break }
                guard recordHeader.count == BTSnoopReader.recordHeaderLength else {
                    capture.end(.truncatedRecordHeader(offset: offset, available: recordHeader.count))
                    break
                }
                let original = Self.bigEndian(recordHeader, 0), included = Self.bigEndian(recordHeader, 4)
                // Read the data only when the record can be whole: a hostile length says nothing
                // about how much memory to set aside.
                var data: [UInt8] = []
                if included <= original {
                    if let remaining = file.remaining, UInt64(included) > UInt64(remaining) {
                        capture.end(.truncatedRecordData(offset: offset, includedLength: included, available: remaining))
                        break
                    }
                    data = try file.read(Int(included))
                }
                let parsed = BTSnoopReader.parse(header + recordHeader + data)
                if let error = parsed.error {
                    capture.end(Self.shifted(error, by: offset - BTSnoopFileHeader.length))
                    break
                }
                guard let record = parsed.records.first else { break }
                capture.add(record, offset: offset)
                offset += BTSnoopReader.recordHeaderLength + data.count
            }
        } catch {
            throw .badFile("\(path): cannot read the file")
        }
        capture.end(nil as BTSnoopError?)  // a clean end (after an error, this only closes the RAS reading again)
        return capture
    }

    static func bigEndian(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }

    /// A record error of a one-record parse, moved to where the record stands in the file.
    static func shifted(_ error: BTSnoopError, by delta: Int) -> BTSnoopError {
        switch error {
        case .truncatedRecordHeader(let o, let available): .truncatedRecordHeader(offset: o + delta, available: available)
        case .truncatedRecordData(let o, let included, let available): .truncatedRecordData(offset: o + delta, includedLength: included, available: available)
        case .includedLengthExceedsOriginal(let o, let included, let original): .includedLengthExceedsOriginal(offset: o + delta, included: included, original: original)
        case .emptyRecord(let o): .emptyRecord(offset: o + delta)
        case .unknownIndicator(let octet, let o): .unknownIndicator(octet, offset: o + delta)
        case .truncatedFileHeader, .badIdentification, .unsupportedVersion, .unsupportedDatalink, .notRepresentable: error
        }
    }

    /// A file read in order through a 64 KiB buffer.
    final class Reader {
        struct Failure: Error {}

        private let fd: Int32
        private var buffer = [UInt8](repeating: 0, count: 1 << 16)
        private var start = 0, end = 0
        /// The file's size when it is a regular file (a pipe's is unknown), and the bytes read.
        private var size: Int?
        private var position = 0

        /// The bytes left to read, when the size is known.
        var remaining: Int? { size.map { max(0, $0 - position) } }

        init?(path: String) {
            fd = open(path, O_RDONLY)
            guard fd >= 0 else { return nil }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else {
                close(fd)
                return nil
            }
            if (info.st_mode & S_IFMT) == S_IFREG { size = Int(info.st_size) }
        }

        deinit { close(fd) }

        /// Octets given back (`giveBack`), read again before the file's next ones.
        private var returned: [UInt8] = []

        /// Gives `bytes`, the last ones read, back to be read again.
        func giveBack(_ bytes: [UInt8]) {
            returned = bytes + returned
            position -= bytes.count
        }

        /// Up to `count` bytes: fewer only at the end of the file.
        func read(_ count: Int) throws(Failure) -> [UInt8] {
            var out: [UInt8] = []
            if !returned.isEmpty {
                let take = min(count, returned.count)
                out = Array(returned.prefix(take))
                returned.removeFirst(take)
            }
            while out.count < count {
                if start == end {
                    let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    guard n >= 0 else { throw Failure() }
                    if n == 0 { break }
                    (start, end) = (0, n)
                }
                let take = min(count - out.count, end - start)
                out += buffer[start..<(start + take)]
                start += take
            }
            position += out.count
            return out
        }
    }
}
