/// The mapping from a libserialport failure to the error a user sees (pure, like
/// `mapping(_:during:path:hangup:)` for `errno`).
extension SerialError {
    /// `SP_ERR_FAIL` carries an `errno` and maps like one; `SP_ERR_SUPP` while configuring is an
    /// unsupported setting (DTR/DSR flow control on Linux, say); the rest are `system` errors
    /// that name the operation and libserialport's message.
    static func mapping(
        _ failure: LibSerialPortFailure, during operation: SerialOperation, path: String, hangup: SerialError? = nil
    ) -> SerialError {
        if failure.code == LibSerialPortFailure.fail, let e = failure.errno {
            return mapping(e, during: operation, path: path, hangup: hangup)
        }
        if failure.code == LibSerialPortFailure.unsupported, operation == .configure {
            return .unsupportedSetting(path: path, detail: "libserialport: \(failure.message)")
        }
        let what = path.isEmpty ? operation.rawValue : "\(operation.rawValue) \(path)"
        return .system(operation: what, detail: "libserialport: \(failure.message)")
    }
}
