import Foundation
import Glibc
import MCUboot
import TestSupport
import Testing
@testable import ReflectorTools
@testable import ToolJSON

/// `reflector-emu flash` as a user runs it: refusals with their exit status, and a real upload
/// to the `mcuboot-test-bootloader` process over a pty.
@Suite(.serialized) struct FlashCommandTests {
    /// This test's files, removed when it ends.
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory("flash") }

    /// An image as imgtool lays it out: header padded to 0x200, payload, SHA-256 TLV.
    static func image(payloadSize: Int) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
        var header = le32(0x96F3_B83D) + le32(0) + le16(0x200) + le16(0) + le32(payloadSize) + le32(0) + [2, 1] + le16(0) + le32(0) + le32(0)
        header += [UInt8](repeating: 0xFF, count: 0x200 - header.count)
        let body = header + (0..<payloadSize).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        return body + le16(0x6907) + le16(40) + le16(0x10) + le16(32) + SHA256.hash(body)
    }

    func temporaryFile(_ bytes: [UInt8], name: String) throws -> String { try dir.write(bytes, name: name) }

    @Test func refusesANonImageWithExitStatus2() throws {
        let path = try temporaryFile(Array("\u{7F}ELF not an image at all, just some bytes".utf8), name: "elf")
        let r = try ToolProcess.run(["flash", "--port", "/dev/null", path])
        #expect(r.status == 2)
        #expect(r.stderr == "reflector-emu: \(path): not an MCUboot image: header magic 0x464c457f is not 0x96f3b83d (sign the binary with imgtool first)\n")
    }

    @Test func usageErrors() throws {
        #expect(throws: ToolError.usage("flash: --port DEVICE is required (see reflector-emu flash --help)")) { try FlashCommand.run(["x.bin"]) }
        #expect(throws: ToolError.usage("flash: an IMAGE to flash is required")) { try FlashCommand.run(["--port", "/dev/ttyACM0"]) }
        #expect(throws: ToolError.usage("--baud must be a baud rate from 1200 to 12000000, found 'fast'")) { try FlashCommand.run(["--baud", "fast"]) }
        #expect(throws: ToolError.usage("--baud must be a baud rate from 1200 to 12000000, found '0'")) { try FlashCommand.run(["--baud", "0"]) }
        #expect(throws: ToolError.usage("--buffer must be an integer from 128 to 65536, found '9223372036854775807'")) {
            try FlashCommand.run(["--buffer", "9223372036854775807"])
        }
    }

    /// A device given as the image is read only up to the limit (it was read forever).
    @Test func anEndlessImageIsRefused() {
        #expect(throws: ToolError.badFile("/dev/zero: too large for an MCUboot image; allowed: at most \(FlashCommand.maximumImageSize) bytes (64 MiB)")) {
            try FlashCommand.checkImage(at: "/dev/zero")
        }
        #expect(throws: ToolError.badFile("/nonexistent/app.bin: cannot read the file")) { try FlashCommand.checkImage(at: "/nonexistent/app.bin") }
    }

    @Test func missingPortIsExitStatus1() throws {
        let path = try temporaryFile(Self.image(payloadSize: 100), name: "ok")
        let r = try ToolProcess.run(["flash", "--port", "/nonexistent/ttyACM9", path])
        #expect(r.status == 1)
        #expect(r.stderr.hasSuffix("reflector-emu: flash: /nonexistent/ttyACM9: no such serial port (is the board plugged in? try 'reflector-emu ports')\n"))
    }

    /// The whole tool against the test bootloader, which drops every third answer.
    @Test(.timeLimit(.minutes(1))) func flashesTheTestBootloader() throws {
        let bytes = Self.image(payloadSize: 2500)
        let path = try temporaryFile(bytes, name: "app")
        let link = dir.file("tty")

        let bootloader = Process()
        bootloader.executableURL = ToolProcess.executable.deletingLastPathComponent().appendingPathComponent("mcuboot-test-bootloader")
        bootloader.arguments = ["--link", link, "--fail-every", "3"]
        let out = Pipe()
        let input = Pipe()
        bootloader.standardOutput = out
        bootloader.standardInput = input
        let exited = DispatchSemaphore(value: 0)
        bootloader.terminationHandler = { _ in exited.signal() }
        try BackgroundProcess.launch(bootloader)
        defer {
            if bootloader.isRunning {
                kill(bootloader.processIdentifier, SIGKILL)
                bootloader.waitUntilExit()
            }
        }
        var lines = LineReader(fd: out.fileHandleForReading.fileDescriptor)
        #expect(lines.next(timeoutMilliseconds: 10_000)?.hasPrefix("ready ") == true)

        let r = try ToolProcess.run(["flash", "--port", link, "--timeout", "300", path], timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("bootloader: rc 0, off \(bytes.count)"))
        #expect(r.stdout.contains("bootloader: reset accepted (rc 0)"))
        #expect(r.stderr.isEmpty)  // no progress bar when stderr is not a terminal

        // End of stdin stops the bootloader, which reports what it received.
        try input.fileHandleForWriting.close()
        let summary = lines.next(timeoutMilliseconds: 5_000)
        let hex = SHA256.hash(bytes).map { String(format: "%02x", $0) }.joined()
        #expect(summary?.hasPrefix("received \(bytes.count) bytes sha256 \(hex) complete yes requests ") == true, "\(summary ?? "no summary")")
        #expect(summary?.hasSuffix(" reset yes") == true)
        ToolProcess.stop(bootloader, exited, grace: 10)
        #expect(bootloader.terminationStatus == 0)
    }
}

/// Lines from a file descriptor, each read with a deadline (poll), so a silent child cannot hang a test.
struct LineReader {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    mutating func next(timeoutMilliseconds: Int) -> String? {
        var remaining = timeoutMilliseconds
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                defer { buffer.removeFirst(nl + 1) }
                return String(decoding: buffer[..<nl], as: UTF8.self)
            }
            guard remaining > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let started = DispatchTime.now()
            guard poll(&p, 1, Int32(remaining)) > 0 else { return nil }
            remaining -= Int((DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000)
            var chunk = [UInt8](repeating: 0, count: 512)
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { return nil }
            buffer += chunk[0..<n]
        }
    }
}
