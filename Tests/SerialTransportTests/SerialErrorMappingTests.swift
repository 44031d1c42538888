import Glibc
import Testing
@testable import SerialTransport

private let acm0 = "/dev/ttyACM0"

/// errno and libserialport codes become the error a user can act on, by what was being done.
struct SerialErrorMappingTests {
    static let p = "/dev/ttyACM0"

    @Test(arguments: [
        (ENOENT, SerialError.notFound(path: acm0)),
        (ENODEV, .notFound(path: acm0)),
        (ENXIO, .notFound(path: acm0)),
        (EACCES, .permissionDenied(path: acm0)),
        (EPERM, .permissionDenied(path: acm0)),
        (EBUSY, .busy(path: acm0)),
        (EAGAIN, .busy(path: acm0)),
    ])
    func whileOpening(code: Int32, expected: SerialError) {
        #expect(SerialError.mapping(Errno(rawValue: code), during: .open, path: Self.p) == expected)
    }

    @Test func whileReadingOrWritingAHangupIsTheLinksOwnError() {
        for op in [SerialOperation.read, .write] {
            for code in [EIO, ENXIO, ENODEV] {
                #expect(SerialError.mapping(Errno(rawValue: code), during: op, path: Self.p) == .vanished(path: Self.p))
                #expect(SerialError.mapping(Errno(rawValue: code), during: op, path: Self.p, hangup: .peerClosed(path: Self.p)) == .peerClosed(path: Self.p))
            }
        }
    }

    @Test func otherErrorsNameTheOperationAndTheOSText() {
        let e = SerialError.mapping(Errno(rawValue: ENOSPC), during: .write, path: Self.p)
        guard case let .system(operation, detail) = e else { Issue.record("\(e)"); return }
        #expect(operation == "write /dev/ttyACM0")
        #expect(detail == String(cString: strerror(ENOSPC)))
    }

    @Test func aRefusedSettingIsUnsupported() {
        let e = SerialError.mapping(Errno(rawValue: EINVAL), during: .configure, path: Self.p)
        guard case .unsupportedSetting(let path, _) = e else { Issue.record("\(e)"); return }
        #expect(path == Self.p)
    }

    @Test func libSerialPortFailuresMapByCodeAndErrno() {
        let busy = LibSerialPortFailure(code: LibSerialPortFailure.fail, errno: Errno(rawValue: EBUSY), message: "Device or resource busy")
        #expect(SerialError.mapping(busy, during: .open, path: Self.p) == .busy(path: Self.p))
        let unsupported = LibSerialPortFailure(code: LibSerialPortFailure.unsupported, errno: nil, message: "x")
        #expect(SerialError.mapping(unsupported, during: .configure, path: Self.p) == .unsupportedSetting(path: Self.p, detail: "libserialport: x"))
        let argument = LibSerialPortFailure(code: LibSerialPortFailure.argument, errno: nil, message: "no sysfs")
        #expect(SerialError.mapping(argument, during: .open, path: Self.p) == .system(operation: "open /dev/ttyACM0", detail: "libserialport: no sysfs"))
    }

    /// Which libserialport refusals are final and which send the port to the termios path.
    @Test func onlyBusyPermissionAndNotFoundAreFinal() {
        func isFinal(_ f: LibSerialPortFailure) -> Bool {
            if case .fatal = SerialPort.classify(f, path: Self.p) { return true }
            return false
        }
        #expect(isFinal(LibSerialPortFailure(code: LibSerialPortFailure.fail, errno: Errno(rawValue: EACCES), message: "")))
        #expect(isFinal(LibSerialPortFailure(code: LibSerialPortFailure.fail, errno: Errno(rawValue: EAGAIN), message: "")))
        #expect(isFinal(LibSerialPortFailure(code: LibSerialPortFailure.fail, errno: Errno(rawValue: ENOENT), message: "")))
        #expect(!isFinal(LibSerialPortFailure(code: LibSerialPortFailure.fail, errno: Errno(rawValue: ENOTTY), message: "TIOCMGET")))
        #expect(!isFinal(LibSerialPortFailure(code: LibSerialPortFailure.fail, errno: Errno(rawValue: EINVAL), message: "")))
        #expect(!isFinal(LibSerialPortFailure(code: LibSerialPortFailure.argument, errno: nil, message: "no sysfs node")))
    }

    @Test func messagesNameThePath() {
        let errors: [SerialError] = [
            .notFound(path: Self.p), .busy(path: Self.p), .permissionDenied(path: Self.p), .vanished(path: Self.p),
            .notATerminal(path: Self.p, kind: "a regular file"), .peerClosed(path: Self.p),
            .writeTimeout(path: Self.p, milliseconds: 5, sent: 1, total: 2), .linkPathOccupied(path: Self.p, kind: "a directory"),
            .closed(path: Self.p),
        ]
        for e in errors { #expect(e.description.hasPrefix(Self.p + ":"), "\(e.description)") }
    }
}
