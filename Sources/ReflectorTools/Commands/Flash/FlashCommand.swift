import Foundation
import MCUboot
import ToolJSON

/// `reflector-emu flash`: uploads a signed MCUboot image to a board in serial recovery mode
/// (MCUboot's SMP-over-console server, `boot_serial.c`) and resets it into the new image.
public enum FlashCommand: Command {
    public static let name = "flash"
    public static let summary = ["upload a firmware image to a board's MCUboot bootloader over serial"]

    public static let help = HelpText(
        usage: """
            usage: reflector-emu flash --port DEVICE IMAGE [--baud N] [--no-reset] [--no-list]
                                       [--buffer BYTES] [--timeout MS] [--retries N]
            """,
        about: """
            Checks IMAGE (an imgtool-signed MCUboot image: header magic, sizes, TLV area and its
            SHA-256), then uploads it over the serial port DEVICE to MCUboot's serial recovery:
            image list first, then upload requests sized to the bootloader's receive buffer, then
            a reset into the new image. A lost or garbled answer is retried; the upload always
            continues from the offset the bootloader reports.
            """,
        notes: """
            A progress bar (bytes and rate) goes to stderr when it is a terminal. Exit status: 0
            uploaded; 1 the port or the bootloader failed (one line on stderr says what); 2 bad
            arguments or IMAGE is not a valid MCUboot image.
            """)

    public struct Options {
        public var port: String?
        public var image: String?
        public var baud = 115_200
        public var session = FlashSession.Configuration()
        public init() {}
    }

    public static var options: OptionTable<Options> {
        OptionTable(defaults: Options(), options: [
            .value(\.port, "--port", "DEVICE", .text, help: "the board's serial port (/dev/ttyACM0, /dev/ttyUSB0, a pty)"),
            .baud(\.baud, help: "line speed (default 115200)"),
            .flag(\.session.reset, "--no-reset", to: false, help: "leave the board in the bootloader after the upload"),
            .flag(\.session.queryImageList, "--no-list", to: false, help: "skip the image list before the upload"),
            .value(\.session.receiveBufferSize, "--buffer", "BYTES", .integer(128...65536), help: "the bootloader's MCUBOOT_SERIAL_MAX_RECEIVE_SIZE (default 512;",
                   "Zephyr's default is 1024, which allows larger chunks)"),
            .value(\.session.timeoutMilliseconds, "--timeout", "MS", .integer(1...600_000), help: "wait per answer (default 3000; the first chunk waits 40 s, because",
                   "MCUboot erases the slot before answering it)"),
            .value(\.session.retries, "--retries", "N", .integer(0...100), help: "resends per request (default 3)"),
        ], positional: Positional("IMAGE") { o, path throws(ToolError) in
            if let first = o.image { throw .usage("flash: one image expected, found '\(first)' and '\(path)'") }
            o.image = path
        }, helpColumn: 16, validate: { o throws(ToolError) in
            guard o.port != nil else { throw .usage("flash: --port DEVICE is required (see reflector-emu flash --help)") }
            guard o.image != nil else { throw .usage("flash: an IMAGE to flash is required") }
        })
    }

    /// The largest image read: far above any MCU's flash (a few MB), and /dev/zero given as the
    /// image is refused instead of read forever.
    public static let maximumImageSize = 64 << 20

    /// Reads and checks an image file; the error names the file and the reason.
    public static func checkImage(at path: String) throws(ToolError) -> MCUbootImage {
        let bytes = try InputFile.contents(path, limit: maximumImageSize, kind: "an MCUboot image")
        do {
            return try MCUbootImage(bytes: bytes)
        } catch {
            throw .badFile("\(path): \(error.description)")
        }
    }

    /// Checks the image and uploads it. Throws `ToolError` (exit status 2) for a bad image;
    /// a port or an upload that failed is the outcome's message (exit status 1). The lines go
    /// to `output`; the progress bar goes to stderr directly.
    public static func run(_ o: Options, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        let emit = { (line: String) in output.line(line) }
        let path = o.image!, port = o.port!
        let image = try checkImage(at: path)
        emit("image \(path): \(image.bytes.count) bytes, version \(image.header.version), hash \(hex(image.hash.prefix(8)))…")

        let link: any ByteLink
        do { link = try FlashPort.open(path: port, baud: o.baud) } catch { return .failure(status: 1, "flash: \(error.description)") }

        var session = FlashSession(image: image, configuration: o.session)
        var bar = RateBar(total: image.bytes.count)
        var resends = 0
        do {
            try FlashRunner.run(&session, over: link, clock: monotonicMilliseconds) { event in
                switch event {
                case .imageList(let slots):
                    emit(slots.isEmpty ? "bootloader: no image in any slot" : slots.map { "bootloader: \($0)" }.joined(separator: "\n"))
                case .imageListUnavailable(let rc):
                    emit("bootloader: image list not available (\(MCUmgrResult.name(rc)))")
                case .progress(let p): bar.update(done: p.acknowledged, bytesPerSecond: p.bytesPerSecond)
                case .uploadComplete(let response, let p):
                    bar.update(done: p.acknowledged, bytesPerSecond: p.bytesPerSecond)
                    bar.finish()
                    emit(String(format: "uploaded %d bytes in %.1f s (%.1f kB/s), %d resend%@", p.acknowledged, Double(p.elapsedMilliseconds) / 1000,
                                p.bytesPerSecond / 1000, resends, resends == 1 ? "" : "s"))
                    emit("bootloader: \(describe(response))")
                case .resetAnswered(let rc):
                    emit(rc == 0 ? "bootloader: reset accepted (rc 0), booting the new image" : "bootloader: reset refused (\(MCUmgrResult.name(rc)))")
                case .retry: resends += 1
                case .finished, .failed: break
                }
            }
        } catch {
            bar.finish()
            return .failure(status: 1, "flash: \(error.description)")
        }
        return .success
    }

    /// A CBOR answer as `rc 0, off 1552`.
    static func describe(_ v: CBORValue) -> String {
        guard case .map(let entries) = v else { return "\(v)" }
        return entries.map { e in
            switch e.value {
            case .unsigned, .negative: return "\(e.key) \(e.value.intValue.map(String.init) ?? "?")"
            case .text(let s): return "\(e.key) \(s)"
            case .bool(let b): return "\(e.key) \(b)"
            case .bytes(let b): return "\(e.key) \(hex(b))"
            default: return "\(e.key) …"
            }
        }.joined(separator: ", ")
    }

    static func hex(_ b: some Sequence<UInt8>) -> String { HexText.octets(b, lowercase: true) }

    static func monotonicMilliseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1000 + UInt64(t.tv_nsec) / 1_000_000
    }
}
