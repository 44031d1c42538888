/// What kind of file a procedure's results were read from (`CapturedProcedure.origin`).
public enum CaptureOrigin: String, Sendable, Equatable, CaseIterable {
    /// HCI traffic: a btsnoop, pcap or pcapng capture of LE CS Subevent Result events.
    case hci
    /// The nRF Connect SDK samples' log of LE CS Subevent Result fields and raw step data.
    case ncsLog = "ncs-log"
    /// Silicon Labs' step-data dump, serial log or their parser's JSON (`cs_step_data_parser`'s input and output).
    case siliconLabsLog = "silabs-log"

    /// Whether the file is a vendor's log rather than a capture of HCI traffic.
    public var isVendorLog: Bool { self != .hci }
}
