import Foundation
import Testing
@testable import SerialTransport
import TestSupport

/// `SerialPort` by path: libserialport for real devices, termios for what it refuses, and
/// errors that name the path.
struct SerialPortTests {
    /// A directory of this test's own for its links and files, removed when the test is done.
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory("serial") }

    @Test func aPtyPathFallsBackToTermiosAndWorks() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let port = try SerialPort(path: pty.replicaPath, configuration: SerialConfiguration(baudRate: 115_200, flowControl: .rtsCts))
        defer { port.close() }
        #expect(port.backend == .termios)
        #expect(port.fallbackReason != nil)
        try port.write([0x01, 0x03, 0x0C, 0x00])
        #expect(try pty.read(exactly: 4, timeout: 2000) == [0x01, 0x03, 0x0C, 0x00])
        try pty.write([0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
        #expect(try port.read(exactly: 7, timeout: 2000) == [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
        port.close()
        #expect(throws: SerialError.closed(path: pty.replicaPath)) { try port.read(max: 1, timeout: 0) }
    }

    /// Through a symbolic link, at a rate without a B constant (termios2 BOTHER).
    @Test func aLinkToAPtyAtAnOddBaudRateWorks() throws {
        let link = directory.file("odd")
        let pty = try PseudoTerminal(linkPath: link)
        defer { pty.close() }
        let port = try SerialPort(path: link, configuration: SerialConfiguration(baudRate: 1_234_567))
        defer { port.close() }
        try pty.write([0x0A, 0x0D])
        #expect(try port.read(exactly: 2, timeout: 2000) == [0x0A, 0x0D])
    }

    @Test func aMissingPathIsNotFoundWithThePath() {
        let path = "/dev/ttyACM-reflector-test-missing"
        #expect(throws: SerialError.notFound(path: path)) { _ = try SerialPort(path: path) }
        #expect(SerialError.notFound(path: path).description.contains(path))
        #expect(throws: SerialError.notFound(path: path)) { _ = try TerminalDevice(path: path) }
    }

    @Test func aRegularFileOrDirectoryIsNotATerminal() throws {
        let file = directory.file("plain")
        #expect(FileManager.default.createFile(atPath: file, contents: Data([1, 2, 3])))
        #expect(throws: SerialError.notATerminal(path: file, kind: "a regular file")) { _ = try SerialPort(path: file) }
        #expect(throws: SerialError.notATerminal(path: file, kind: "a regular file")) { _ = try TerminalDevice(path: file) }
        #expect(SerialError.notATerminal(path: file, kind: "a regular file").description.contains("\(file): not a serial port"))
        #expect(throws: SerialError.notATerminal(path: directory.path, kind: "a directory")) { _ = try SerialPort(path: directory.path) }
        #expect(throws: SerialError.notATerminal(path: "/dev/null", kind: "a character device that is not a terminal")) {
            _ = try SerialPort(path: "/dev/null")
        }
    }

    /// The second opener of a port gets `.busy` (the exclusive flock).
    @Test func aSecondOpenerIsTurnedAwayAsBusy() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let first = try SerialPort(path: pty.replicaPath)
        defer { first.close() }
        #expect(throws: SerialError.busy(path: pty.replicaPath)) { _ = try SerialPort(path: pty.replicaPath) }
    }

    /// Listing works on this machine (there may be no ports at all).
    @Test func listingPortsDoesNotFail() throws {
        let ports = try SerialPortInfo.list()
        for p in ports {
            #expect(p.path.hasPrefix("/dev/"))
            if p.transport != .usb { #expect(p.usbVendorID == nil) }
        }
        #expect(ports.map(\.path) == ports.map(\.path).sorted())
    }
}
