import HCITransport
import ReflectorFirmware

/// Something in a btsnoop capture that could not be read: where (the file offset, in octets
/// from the start of the file) and what, in words for a one-line error message.
///
/// For a btsnoop format error the offset is the one `BTSnoopError` carries (where the bad record
/// starts: the file's valid prefix ends there). For an HCI event that could not be decoded it is
/// the offset of the record that holds the event.
///
/// A text file (a vendor's step-data log) names a line instead: `offset` is then the line
/// number (1-based) and `isLine` is true.
public struct CaptureProblem: Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var message: String
    /// Whether `offset` is a line number (of a text log) rather than a byte offset.
    public var isLine: Bool
    /// Where in a JSON document (`cs_procedures[1].reflector_step_data.step_4.Tone_PCT`), for a
    /// value that parsed but does not mean what it must; `offset` is then the procedure's index.
    public var keyPath: String?

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
        isLine = false
    }

    /// A problem on line `line` (1-based) of a text log.
    public init(line: Int, message: String) {
        offset = line
        self.message = message
        isLine = true
    }

    /// A problem at `keyPath` of a JSON document, in the procedure of index `procedure`.
    public init(keyPath: String, procedure: Int, message: String) {
        offset = procedure
        self.message = message
        isLine = false
        self.keyPath = keyPath
    }

    public var description: String {
        if let keyPath { return "\(keyPath): \(message)" }
        return isLine ? "line \(offset): \(message)" : "byte offset \(offset): \(message)"
    }

    /// A btsnoop format error (every reading error has an offset; a writing error cannot occur here).
    init(_ error: BTSnoopError) {
        let message: String
        switch error {
        case .truncatedFileHeader(let available):
            message = "not a btsnoop file: \(available) octets, shorter than the 16-octet file header"
        case .badIdentification:
            message = "not a btsnoop file: it does not start with \"btsnoop\\0\""
        case .unsupportedVersion(let v):
            message = "unsupported btsnoop version \(v) (only 1 is defined)"
        case .unsupportedDatalink(let d):
            message = "unsupported btsnoop datalink \(d) (1001 and 1002 are read)"
        case .truncatedRecordHeader(let offset, let available):
            message = CaptureFileError.truncatedRecordHeader(at: offset, available: available, of: 24).message
        case .truncatedRecordData(let offset, let included, let available):
            message = CaptureFileError.truncatedRecordData(at: offset, declared: included, available: available).message
        case .includedLengthExceedsOriginal(let offset, let included, let original):
            message = CaptureFileError.lengthExceedsOriginal(at: offset, lengthName: "included", included: included, original: original).message
        case .emptyRecord:
            message = "malformed record: no octets, so no H4 packet indicator"
        case .unknownIndicator(let octet, _):
            message = "malformed record: unknown H4 packet indicator 0x\(hex(octet))"
        case .notRepresentable:
            message = "record not representable in this datalink"
        }
        self.init(offset: error.offset ?? 0, message: message)
    }

    /// An HCI event (LE Meta `subevent`) in the record at `offset` that could not be decoded.
    init(offset: Int, subevent: UInt8, _ error: DecodeError) {
        self.init(offset: offset, message: "malformed \(Self.name(subevent)) event: \(Self.describe(error))")
    }

    /// A Subevent Result or Continue event in the record at `offset` that could not join a procedure.
    init(offset: Int, subevent: UInt8, _ error: ProcedureAssemblyError) {
        switch error {
        case .malformed(let e):
            self.init(offset: offset, subevent: subevent, e)
        case .outOfOrder(let e):
            let why = switch e {
            case .continuationWithoutResult: "a Continue event with no Subevent Result before it"
            case .mismatchedContinuation: "a Continue event that does not match its Subevent Result"
            case .tooManySteps: "more than 160 steps in one subevent"
            }
            self.init(offset: offset, message: "\(Self.name(subevent)) event out of sequence: \(why)")
        }
    }

    static func describe(_ error: DecodeError) -> String {
        switch error {
        case .truncated(let field, let needed): "\(field) cut short (\(needed) more octets needed)"
        case .trailingBytes(let extra): "\(extra) octets after the last field"
        case .invalidValue(let field, let value): "\(field) = \(value) is not allowed"
        case .unexpectedCode(let expected, let found): "code 0x\(hex(UInt8(truncatingIfNeeded: found))) where 0x\(hex(UInt8(truncatingIfNeeded: expected))) was expected"
        }
    }

    static func name(_ subevent: UInt8) -> String {
        switch subevent {
        case LECSConfigComplete.subeventCode: "LE CS Config Complete"
        case LECSProcedureEnableComplete.subeventCode: "LE CS Procedure Enable Complete"
        case LECSSubeventResult.subeventCode: "LE CS Subevent Result"
        case LECSSubeventResultContinue.subeventCode: "LE CS Subevent Result Continue"
        default: "LE Meta 0x\(hex(subevent))"
        }
    }
}

private func hex(_ octet: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(octet >> 4)], digits[Int(octet & 0xF)]])
}
