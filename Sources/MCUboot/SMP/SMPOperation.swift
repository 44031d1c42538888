/// The op field of an SMP header (bits 2–0 of octet 0; Zephyr `smp_protocol.rst`,
/// MCUboot `boot_serial_priv.h` NMGR_OP_*). A server answers op n with op n + 1.
public enum SMPOperation: UInt8, Sendable, Equatable {
    case read = 0
    case readResponse = 1
    case write = 2
    case writeResponse = 3

    /// The operation a response to this request carries.
    public var response: SMPOperation {
        switch self {
        case .read, .readResponse: return .readResponse
        case .write, .writeResponse: return .writeResponse
        }
    }
}
