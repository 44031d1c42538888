/// The mapping from an `errno` to the error a user sees, in one pure function (tested without
/// any device) rather than spread over the call sites.
extension SerialError {
    /// The error for `errno` from a call made during `operation` on `path`.
    ///
    /// - While opening or locking: ENOENT/ENOTDIR/ENODEV/ENXIO → `notFound` (Linux answers ENXIO
    ///   or ENODEV for a tty node whose device is gone); EACCES/EPERM → `permissionDenied`;
    ///   EBUSY (TIOCEXCL held) and EAGAIN/EWOULDBLOCK (`flock` held) → `busy`; ENOTTY →
    ///   `notATerminal`.
    /// - While reading or writing: EIO/ENXIO/ENODEV/EPIPE → `hangup` (the caller passes
    ///   `vanished` for a device, `peerClosed` for a pseudo-terminal master): that is what a
    ///   USB CDC ACM or FTDI port answers after unplugging, and what a pty master answers once
    ///   the last replica fd is closed.
    /// - While configuring: EINVAL/ENOTSUP/ENOTTY → `unsupportedSetting`.
    /// - Anything else → `system`, naming the operation and the `strerror` text.
    static func mapping(
        _ error: Errno, during operation: SerialOperation, path: String, hangup: SerialError? = nil
    ) -> SerialError {
        switch operation {
        case .open, .lock:
            switch error {
            case .noSuchFile, .notADirectory, .noSuchDevice, .noSuchDeviceOrAddress: return .notFound(path: path)
            case .permissionDenied, .notPermitted: return .permissionDenied(path: path)
            case .busy, .wouldBlock: return .busy(path: path)
            case .notATerminal: return .notATerminal(path: path, kind: "a device that is not a terminal")
            default: break
            }
        case .read, .write:
            switch error {
            case .ioError, .noSuchDeviceOrAddress, .noSuchDevice, .brokenPipe: return hangup ?? .vanished(path: path)
            case .badFileDescriptor: return .closed(path: path)
            default: break
            }
        case .configure:
            switch error {
            case .invalidArgument, .notSupported, .notATerminal:
                return .unsupportedSetting(path: path, detail: "the device refused the setting (\(error.description))")
            case .ioError, .noSuchDeviceOrAddress, .noSuchDevice: return hangup ?? .vanished(path: path)
            default: break
            }
        case .link:
            switch error {
            case .permissionDenied, .notPermitted: return .permissionDenied(path: path)
            case .noSuchFile, .notADirectory: return .notFound(path: path)
            default: break
            }
        case .createPseudoTerminal, .list:
            break
        }
        return .system(operation: path.isEmpty ? operation.rawValue : "\(operation.rawValue) \(path)", detail: error.description)
    }
}
