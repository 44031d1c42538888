/// The checks every record-framed capture makes before it reads a record (btsnoop, btmon's
/// monitor btsnoop, pcap: a fixed header that declares the captured and original lengths,
/// then the captured octets), with the one wording their errors share. The offset of each
/// error is the record's start: the length of the file's valid prefix.
public enum CaptureRecordFrame {
    /// The record at `offset` has its whole `headerLength`-octet header.
    static func checkHeader(_ bytes: [UInt8], at offset: Int, headerLength: Int) throws(CaptureFileError) {
        let available = bytes.count - offset
        guard available >= headerLength else { throw .truncatedRecordHeader(at: offset, available: available, of: headerLength) }
    }

    /// Where the record's captured octets are: `included` (the format's `lengthName` for it)
    /// no more than `original` nor `maximum`, and all present after the header.
    static func data(_ bytes: [UInt8], at offset: Int, headerLength: Int, included: UInt32, original: UInt32,
                     lengthName: String, maximum: UInt32 = .max) throws(CaptureFileError) -> Range<Int> {
        guard included <= maximum else {
            throw CaptureFileError(offset: offset, "malformed record: \(lengthName) length \(included) is over \(maximum)")
        }
        guard included <= original else {
            throw .lengthExceedsOriginal(at: offset, lengthName: lengthName, included: included, original: original)
        }
        let start = offset + headerLength
        guard UInt64(included) <= UInt64(bytes.count - start) else {
            throw .truncatedRecordData(at: offset, declared: included, available: bytes.count - start)
        }
        return start..<start + Int(included)
    }
}

extension CaptureFileError {
    public static func truncatedRecordHeader(at offset: Int, available: Int, of headerLength: Int) -> CaptureFileError {
        CaptureFileError(offset: offset, "record header cut short (\(available) of \(headerLength) octets): the capture is truncated")
    }

    public static func truncatedRecordData(at offset: Int, declared: UInt32, available: Int) -> CaptureFileError {
        CaptureFileError(offset: offset, "record data cut short (\(declared) octets declared, \(available) present): the capture is truncated")
    }

    public static func lengthExceedsOriginal(at offset: Int, lengthName: String, included: UInt32, original: UInt32) -> CaptureFileError {
        CaptureFileError(offset: offset, "malformed record: \(lengthName) length \(included) exceeds original length \(original)")
    }
}
