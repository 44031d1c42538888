/// The formats `reflector-emu estimate` reads, recognised by their first octets (at most
/// 64 KiB of them), never by the file's name.
public enum CaptureFormat: Sendable, Equatable {
    /// btsnoop: `"btsnoop\0"`, version 1 (datalinks 1001, 1002, 2001).
    case btsnoop
    /// The nRF Connect SDK samples' log (`NCSSampleLog`).
    case ncsLog
    /// Silicon Labs' step-data dump (`SiliconLabsStepLog`).
    case siliconLabsLog
    /// None of these (read as btsnoop, whose error then says so).
    case unknown

    public init(_ head: [UInt8]) {
        if head.starts(with: Array("btsnoop\0".utf8)) {
            self = .btsnoop
        } else if SiliconLabsStepLog.matches(head) {
            self = .siliconLabsLog
        } else if NCSSampleLog.matches(head) {
            self = .ncsLog
        } else {
            self = .unknown
        }
    }

    /// In words, for messages.
    public var name: String {
        switch self {
        case .btsnoop: "btsnoop capture"
        case .ncsLog: "nRF Connect SDK sample log"
        case .siliconLabsLog: "Silicon Labs step-data dump"
        case .unknown: "capture"
        }
    }
}
