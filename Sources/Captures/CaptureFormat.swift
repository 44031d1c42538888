import HCITransport

/// The formats `reflector-emu estimate` reads, recognised by their first octets (at most
/// 64 KiB of them), never by the file's name.
public enum CaptureFormat: Sendable, Equatable {
    /// btsnoop: `"btsnoop\0"`, version 1, datalink 1001 or 1002 (and any other datalink, which
    /// the btsnoop reader then refuses by name).
    case btsnoop
    /// btsnoop of datalink 2001, BlueZ's Linux monitor format (`btmon -w`).
    case btsnoopMonitor
    /// pcap, either byte order, micro- or nanosecond timestamps (`PcapReader`).
    case pcap
    /// pcapng (`PcapngReader`).
    case pcapng
    /// The nRF Connect SDK samples' log (`NCSSampleLog`).
    case ncsLog
    /// Silicon Labs' step-data dump (`SiliconLabsStepLog`).
    case siliconLabsLog
    /// The JSON Silicon Labs' `cs_step_data_parser` writes (`SiliconLabsStepJSON`).
    case siliconLabsJSON
    /// What Silicon Labs' tools capture from the initiator's serial port (`SiliconLabsSerialLog`).
    case siliconLabsSerialLog
    /// None of these (read as btsnoop, whose error then says so).
    case unknown

    public init(_ head: [UInt8]) {
        if head.starts(with: Array("btsnoop\0".utf8)) {
            self = head.count >= 16 && Array(head[12..<16]) == [0, 0, 0x07, 0xD1] ? .btsnoopMonitor : .btsnoop
        } else if PcapReader.matches(head) {
            self = .pcap
        } else if PcapngReader.matches(head) {
            self = .pcapng
        } else if SiliconLabsSerialLog.matches(head) {
            self = .siliconLabsSerialLog
        } else if SiliconLabsStepJSON.matches(head) {
            self = .siliconLabsJSON
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
        case .btsnoopMonitor: "btsnoop capture (Linux monitor)"
        case .pcap: "pcap capture"
        case .pcapng: "pcapng capture"
        case .ncsLog: "nRF Connect SDK sample log"
        case .siliconLabsLog: "Silicon Labs step-data dump"
        case .siliconLabsJSON: "Silicon Labs step-data JSON"
        case .siliconLabsSerialLog: "Silicon Labs serial log"
        case .unknown: "capture"
        }
    }
}
