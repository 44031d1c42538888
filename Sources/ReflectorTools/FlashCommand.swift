import Foundation
import MCUboot

/// `reflector-emu flash`: uploads a signed MCUboot image to a board in serial recovery mode
/// (MCUboot's SMP-over-console server, `boot_serial.c`) and resets it into the new image.
public enum FlashCommand {
    public static let help = """
        usage: reflector-emu flash --port DEVICE IMAGE [--baud N] [--no-reset] [--no-list]
                                   [--buffer BYTES] [--timeout MS] [--retries N]

        Checks IMAGE (an imgtool-signed MCUboot image: header magic, sizes, TLV area and its
        SHA-256), then uploads it over the serial port DEVICE to MCUboot's serial recovery:
        image list first, then upload requests sized to the bootloader's receive buffer, then
        a reset into the new image. A lost or garbled answer is retried; the upload always
        continues from the offset the bootloader reports.

          --port DEVICE   the board's serial port (/dev/ttyACM0, /dev/ttyUSB0, a pty)
          --baud N        line speed (default 115200)
          --no-reset      leave the board in the bootloader after the upload
          --no-list       skip the image list before the upload
          --buffer BYTES  the bootloader's MCUBOOT_SERIAL_MAX_RECEIVE_SIZE (default 512;
                          Zephyr's default is 1024, which allows larger chunks)
          --timeout MS    wait per answer (default 3000; the first chunk waits 40 s, because
                          MCUboot erases the slot before answering it)
          --retries N     resends per request (default 3)

        A progress bar (bytes and rate) goes to stderr when it is a terminal. Exit status: 0
        uploaded; 1 the port or the bootloader failed (one line on stderr says what); 2 bad
        arguments or IMAGE is not a valid MCUboot image.

        """

    struct Options {
        var port: String?
        var image: String?
        var baud = 115_200
        var session = FlashSession.Configuration()
    }

    /// What happened after the arguments and the image were found good: the lines printed,
    /// and the failure to report (exit status 1) if the upload did not complete.
    public struct Outcome: Sendable, Equatable {
        public var failure: String?
    }

    static func parse(_ args: [String]) throws(ToolError) -> Options? {
        var o = Options()
        var i = 0
        func value(_ flag: String) throws(ToolError) -> String {
            i += 1
            guard i < args.count else { throw .usage("flash: \(flag) needs a value") }
            return args[i]
        }
        func number(_ flag: String, min lower: Int) throws(ToolError) -> Int {
            let v = try value(flag)
            guard let n = Int(v), n >= lower else { throw .usage("flash: \(flag) needs a number of at least \(lower), not '\(v)'") }
            return n
        }
        while i < args.count {
            let a = args[i]
            switch a {
            case "--port": o.port = try value(a)
            case "--baud": o.baud = try number(a, min: 1)
            case "--no-reset": o.session.reset = false
            case "--no-list": o.session.queryImageList = false
            case "--buffer": o.session.receiveBufferSize = try number(a, min: 128)
            case "--timeout": o.session.timeoutMilliseconds = UInt64(try number(a, min: 1))
            case "--retries": o.session.retries = try number(a, min: 0)
            case "-h", "--help": return nil
            default:
                guard !a.hasPrefix("-") else { throw .usage("flash: unknown option '\(a)' (see reflector-emu flash --help)") }
                guard o.image == nil else { throw .usage("flash: one image expected, found '\(o.image!)' and '\(a)'") }
                o.image = a
            }
            i += 1
        }
        guard o.port != nil else { throw .usage("flash: --port DEVICE is required (see reflector-emu flash --help)") }
        guard o.image != nil else { throw .usage("flash: an IMAGE to flash is required") }
        return o
    }

    /// Reads and checks an image file; the error names the file and the reason.
    public static func checkImage(at path: String) throws(ToolError) -> MCUbootImage {
        guard let data = FileManager.default.contents(atPath: path) else { throw .badFile("\(path): cannot read the file") }
        do {
            return try MCUbootImage(bytes: Array(data))
        } catch {
            throw .badFile("\(path): \(error.description)")
        }
    }

    /// Runs the command. Throws `ToolError` (exit status 2) for bad arguments or a bad image;
    /// otherwise returns the outcome, with `failure` set when the port or the upload failed.
    /// `emit` receives the lines for stdout; the progress bar goes to stderr directly.
    public static func run(_ args: [String], emit: (String) -> Void) throws(ToolError) -> Outcome {
        guard let o = try parse(args) else {
            emit(help)
            return Outcome()
        }
        let path = o.image!, port = o.port!
        let image = try checkImage(at: path)
        emit("image \(path): \(image.bytes.count) bytes, version \(image.header.version), hash \(hex(image.hash.prefix(8)))…")

        let link: any ByteLink
        do { link = try FlashPort.open(path: port, baud: o.baud) } catch { return Outcome(failure: "flash: \(error.description)") }

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
                case .progress(let p): bar.update(p)
                case .uploadComplete(let response, let p):
                    bar.update(p)
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
            return Outcome(failure: "flash: \(error.description)")
        }
        return Outcome()
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

    static func hex(_ b: some Sequence<UInt8>) -> String { b.map { String(format: "%02x", $0) }.joined() }

    static func monotonicMilliseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1000 + UInt64(t.tv_nsec) / 1_000_000
    }
}

/// The upload's progress line on stderr: bar, bytes and rate; drawn only when stderr is a
/// terminal, so logs and pipes stay clean.
struct RateBar {
    let total: Int
    private let enabled = isatty(STDERR_FILENO) != 0
    private var drawn = false

    init(total: Int) { self.total = total }

    mutating func update(_ p: FlashProgress) {
        guard enabled else { return }
        let width = 30
        let filled = min(width, p.acknowledged * width / max(total, 1))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data(String(format: "\r[%@] %d/%d bytes  %.1f kB/s ", bar, p.acknowledged, total, p.bytesPerSecond / 1000).utf8))
        drawn = true
    }

    mutating func finish() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\n".utf8))
        drawn = false
    }
}
