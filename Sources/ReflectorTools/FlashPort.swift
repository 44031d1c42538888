import CPty
import Glibc
import MCUboot
import SerialTransport

/// The one place that chooses how `reflector-emu flash` reaches a board: today a path opened
/// with open(2) and put in raw 8N1 mode by the CPty shim (works for /dev/ttyACM*, /dev/ttyUSB*
/// and ptys), wrapped in MCUboot's `FileDescriptorLink`. SerialTransport's SerialPort will
/// replace this body; callers only see a `ByteLink`.
enum FlashPort {
    static func open(path: String, baud: Int) throws(SerialError) -> any ByteLink {
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else {
            let e = errno
            switch e {
            case ENOENT, ENODEV, ENXIO: throw .notFound(path: path)
            case EACCES, EPERM: throw .permissionDenied(path: path)
            case EBUSY: throw .busy(path: path)
            default: throw .system(operation: "open \(path)", detail: String(cString: strerror(e)))
            }
        }
        guard cpty_make_raw(fd, Int32(clamping: baud), 0) == 0 else {
            let e = errno
            close(fd)
            if e == ENOTTY { throw .unsupportedSetting(path: path, detail: "not a serial port or terminal") }
            throw .unsupportedSetting(path: path, detail: "cannot set \(baud) baud, raw 8N1 (\(String(cString: strerror(e))))")
        }
        // Drop whatever the board printed before we arrived (boot banner, stale answers).
        tcflush(fd, TCIFLUSH)
        return FileDescriptorLink(fd: fd)
    }
}
