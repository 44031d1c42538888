import CSerialPort

/// A failed libserialport call: its `sp_return` code and, for `SP_ERR_FAIL` (an OS error), the
/// `errno` and message from `sp_last_error_code()`/`sp_last_error_message()`, captured at once
/// because later calls overwrite them.
struct LibSerialPortFailure: Error, Equatable {
    /// `SP_ERR_ARG` −1, `SP_ERR_FAIL` −2, `SP_ERR_MEM` −3, `SP_ERR_SUPP` −4.
    var code: Int32
    /// The OS error behind `SP_ERR_FAIL`; nil for the other codes.
    var errno: Errno?
    var message: String

    static let argument: Int32 = SP_ERR_ARG.rawValue
    static let fail: Int32 = SP_ERR_FAIL.rawValue
    static let memory: Int32 = SP_ERR_MEM.rawValue
    static let unsupported: Int32 = SP_ERR_SUPP.rawValue
}
