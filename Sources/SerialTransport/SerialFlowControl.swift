/// Hardware flow control on the UART. H4 has no flow control of its own, so boards that run HCI
/// at 1 Mbaud (Nordic's DKs among them) expect RTS/CTS; ptys accept the flag and ignore it.
public enum SerialFlowControl: String, Sendable, Equatable, CaseIterable {
    /// No flow control (CRTSCTS off; libserialport `SP_FLOWCONTROL_NONE`).
    case none
    /// RTS/CTS (CRTSCTS on; libserialport `SP_FLOWCONTROL_RTSCTS`). Spelled `rts_cts` as in
    /// the board profiles.
    case rtsCts = "rts_cts"
}
