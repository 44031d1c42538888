import Foundation
import HCITransport
import RadioWorld
import ReflectorFirmware
import SerialTransport
import VirtualBoard

/// `reflector-emu serve`: the emulated controller as a dev board on a pty or serial port, with
/// an emulated peer of the other role in the simulated air. Runs until SIGINT, SIGTERM or the
/// end of standard input.
public enum ServeCommand: Command {
    public static let name = "serve"
    public static let summary = ["serve the emulated controller as a virtual dev board on a pty or serial port"]

    public static let help = HelpText(
        usage: "usage: reflector-emu serve (--pty LINK | --port DEVICE [--baud N] [--rtscts]) [options]",
        about: """
            Serves the emulated controller as a virtual dev board: a real host stack (Bumble,
            BlueZ, Zephyr's host) attaches to LINK (a pseudo-terminal) or DEVICE with H4 at 8N1,
            initialises it, connects to the emulated peer and runs Channel Sounding. Prints
            'ready <path>' when it accepts traffic; stops on SIGINT, SIGTERM or end of stdin.
            """)

    public struct Options {
        public var ptyLink: String?
        public var port: String?
        public var baud = 1_000_000
        public var rtscts = false
        public var role = VirtualBoard.Role.reflector
        public var distance = 3.0
        public var peerAddress: UInt64 = 0xC0FF_EE00_00B1
        public var ltk: [UInt8]?
        public var channel = AirChannelChoice.light
        public var snr = 30.0
        public var seed: UInt64 = 1
        public var layout = CapabilitiesLayout.v2
        public var btsnoop: String?
        public init() {}
    }

    public static var options: OptionTable<Options> {
        OptionTable(defaults: Options(), options: [
            .value(\.ptyLink, "--pty", "LINK", .text, help: "create a pseudo-terminal and link LINK to it"),
            .value(\.port, "--port", "DEVICE", .text, help: "serve on a real serial port instead"),
            .baud(\.baud, help: "baud rate on --port (default 1000000)"),
            .flag(\.rtscts, "--rtscts", help: "RTS/CTS flow control on --port"),
            .value(\.role, "--role", "ROLE", OptionValue(allowed: "reflector or initiator") { VirtualBoard.Role(rawValue: $0) },
                   help: "reflector (default: the peer is an iPhone-like initiator that",
                   "connects when the host advertises) or initiator (the peer is",
                   "this project's reflector; the host connects to --peer-address)"),
            .value(\.distance, "--peer-distance", "M", .number(0.1...149, "m"), help: "distance to the peer in metres (default 3)"),
            .value(\.peerAddress, "--peer-address", "ADDR", OptionValue(allowed: "six hex octets like C0:FF:EE:00:00:B1") { ServeCommand.address($0) },
                   help: "the peer's address, XX:XX:XX:XX:XX:XX (default C0:FF:EE:00:00:B1)"),
            .value(\.ltk, "--bond-ltk", "HEX32", OptionValue(allowed: "32 hex digits (16 octets, as HCI carries the key)") { v in
                v.count == 32 ? ServeCommand.hexBytes(v) : nil
            }, help: "the bond's long-term key; without it any key is accepted"),
            .value(\.channel, "--channel", "MODEL", .airChannel, help: "light (default), free, two-ray, tgn-b ... (as loopback)"),
            .snr(\.snr, help: "per-tone SNR (default 30)"),
            .seed(\.seed, help: "simulation seed (default 1)"),
            .value(\.layout, "--caps-layout", "FORM", OptionValue(allowed: "zephyr or bumble") { v in
                v == "zephyr" ? CapabilitiesLayout.v2 : v == "bumble" ? .v2WithPHYSpecificRTT : nil
            }, help: "zephyr (default: 31-octet v2 capabilities) or bumble (34 octets)"),
            .value(\.btsnoop, "--btsnoop", "FILE", .text, help: "record the HCI traffic on the line, both directions"),
        ], helpColumn: 23, validate: { o throws(ToolError) in
            guard (o.ptyLink == nil) != (o.port == nil) else { throw .usage("serve: give exactly one of --pty LINK and --port DEVICE") }
        })
    }

    /// XX:XX:XX:XX:XX:XX, most significant octet first, as addresses are written.
    static func address(_ text: String) -> UInt64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var v: UInt64 = 0
        for p in parts {
            guard let b = hexOctet(p) else { return nil }
            v = v << 8 | UInt64(b)
        }
        return v
    }

    /// Octets from hex digits, two per octet (no signs, no other characters).
    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let b = hexOctet(Substring(decoding: digits[i..<i + 2], as: UTF8.self)) else { return nil }
            out.append(b)
        }
        return out
    }

    /// Two ASCII hexadecimal digits.
    static func hexOctet(_ s: Substring) -> UInt8? {
        guard s.utf8.count == 2, s.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }) else { return nil }
        return UInt8(s, radix: 16)
    }

    /// Serves until stopped; the `ready` line and the closing summary go to `output` at once.
    public static func run(_ o: Options, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        output.flushesEachLine = true
        let emit = { (line: String) in output.line(line) }
        let link: any SerialLink
        do {
            if let ptyLink = o.ptyLink {
                link = try PseudoTerminal(linkPath: ptyLink, keepsReplicaOpen: true)
            } else {
                link = try SerialPort(path: o.port!, configuration: SerialConfiguration(baudRate: o.baud, flowControl: o.rtscts ? .rtsCts : .none))
            }
        } catch {
            throw .usage(error.description)
        }
        defer { link.close() }
        let channel = HCIChannel(link: link, side: .controller)
        var sink: BTSnoopFileSink?
        if let path = o.btsnoop {
            do { sink = try BTSnoopFileSink(creatingFileAtPath: path) } catch { throw .badFile("\(path): cannot create the capture (\(error))") }
            channel.recorder = { try? sink?.append($0) }
        }
        defer { try? sink?.close() }
        var scenario = AirScenario(seed: o.seed, geometry: AirGeometry(distance: o.distance), channelModel: o.channel.model, snrDB: o.snr)
        scenario.channelCoherenceTime = 150_000
        var board = VirtualBoard(.init(role: o.role, scenario: scenario, peerAddress: o.peerAddress, bondLTK: o.ltk))
        board.setCapabilitiesLayout(o.layout)
        StopSignal.install()
        emit("ready \(o.ptyLink ?? o.port!)")
        let start = SystemClock.microseconds()
        var packets = 0
        while !StopSignal.requested {
            do {
                let packet = try channel.receive(timeout: 5)
                board.receive(packet)
                packets += 1
            } catch .timeout {
            } catch {
                // The line went away (unplugged port): nothing left to serve.
                emit("serve: \(error.description)")
                break
            }
            for p in board.poll(now: SystemClock.microseconds() - start) {
                do { try channel.send(p) } catch { break }
            }
            if StopSignal.standardInputClosed() { break }
        }
        emit("serve: stopped after \(packets) packets from the host, \(board.proceduresRun) CS procedures")
        return .success
    }
}

/// SIGINT and SIGTERM ask a long-running command to stop at its next loop turn.
enum StopSignal {
    nonisolated(unsafe) static var flag: sig_atomic_t = 0

    static var requested: Bool { flag != 0 }

    static func install() {
        flag = 0
        signal(SIGINT) { _ in StopSignal.flag = 1 }
        signal(SIGTERM) { _ in StopSignal.flag = 1 }
    }

    /// Whether standard input reached its end (the other stop condition of serve).
    static func standardInputClosed() -> Bool {
        var pfd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, 0) > 0 else { return false }
        if pfd.revents & Int16(POLLIN) != 0 {
            var byte: UInt8 = 0
            return read(STDIN_FILENO, &byte, 1) <= 0
        }
        return pfd.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }
}

/// Monotonic microseconds for the virtual board's clock.
enum SystemClock {
    static func microseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec / 1000)
    }
}
