import Foundation
import HCITransport
import RadioWorld
import ReflectorFirmware
import SerialTransport
import VirtualBoard

/// `reflector-emu serve`: the emulated controller as a dev board on a pty or serial port, with
/// an emulated peer of the other role in the simulated air. Runs until SIGINT, SIGTERM or the
/// end of standard input.
public enum ServeCommand {
    public static let help = """
        usage: reflector-emu serve (--pty LINK | --port DEVICE [--baud N] [--rtscts]) [options]

        Serves the emulated controller as a virtual dev board: a real host stack (Bumble,
        BlueZ, Zephyr's host) attaches to LINK (a pseudo-terminal) or DEVICE with H4 at 8N1,
        initialises it, connects to the emulated peer and runs Channel Sounding. Prints
        'ready <path>' when it accepts traffic; stops on SIGINT, SIGTERM or end of stdin.

          --pty LINK             create a pseudo-terminal and link LINK to it
          --port DEVICE          serve on a real serial port instead
          --baud N               baud rate on --port (default 1000000)
          --rtscts               RTS/CTS flow control on --port
          --role ROLE            reflector (default: the peer is an iPhone-like initiator that
                                 connects when the host advertises) or initiator (the peer is
                                 this project's reflector; the host connects to --peer-address)
          --peer-distance M      distance to the peer in metres (default 3)
          --peer-address ADDR    the peer's address, XX:XX:XX:XX:XX:XX (default C0:FF:EE:00:00:B1)
          --bond-ltk HEX32       the bond's long-term key; without it any key is accepted
          --channel MODEL        light (default), free, two-ray, tgn-b ... (as loopback)
          --snr DB               per-tone SNR (default 30)
          --seed N               simulation seed (default 1)
          --caps-layout FORM     zephyr (default: 31-octet v2 capabilities) or bumble (34 octets)
          --btsnoop FILE         record the HCI traffic on the line, both directions

        """

    struct Options {
        var ptyLink: String?
        var port: String?
        var baud = 1_000_000
        var rtscts = false
        var role = BoardController.Role.reflector
        var distance = 3.0
        var peerAddress: UInt64 = 0xC0FF_EE00_00B1
        var ltk: [UInt8]?
        var channel = LoopbackOptions.light
        var snr = 30.0
        var seed: UInt64 = 1
        var layout = CapabilitiesLayout.v2
        var btsnoop: String?

        init(_ args: [String]) throws(ToolError) {
            var i = 0
            func value(_ flag: String) throws(ToolError) -> String {
                i += 1
                guard i < args.count, !args[i].hasPrefix("--") else { throw .usage("\(flag) needs a value") }
                return args[i]
            }
            while i < args.count {
                switch args[i] {
                case "--pty": ptyLink = try value("--pty")
                case "--port": port = try value("--port")
                case "--baud":
                    let v = try value("--baud")
                    guard let b = Int(v), (1200...12_000_000).contains(b) else { throw .usage("--baud must be a baud rate from 1200 to 12000000, found '\(v)'") }
                    baud = b
                case "--rtscts": rtscts = true
                case "--role":
                    let v = try value("--role")
                    guard let r = BoardController.Role(rawValue: v) else { throw .usage("--role must be reflector or initiator, found '\(v)'") }
                    role = r
                case "--peer-distance":
                    let v = try value("--peer-distance")
                    guard let d = Double(v), (0.1...149).contains(d) else { throw .usage("--peer-distance must be a number from 0.1 to 149 m, found '\(v)'") }
                    distance = d
                case "--peer-address":
                    let v = try value("--peer-address")
                    guard let a = ServeCommand.address(v) else { throw .usage("--peer-address must be six hex octets like C0:FF:EE:00:00:B1, found '\(v)'") }
                    peerAddress = a
                case "--bond-ltk":
                    let v = try value("--bond-ltk")
                    guard v.count == 32, let bytes = ServeCommand.hexBytes(v) else { throw .usage("--bond-ltk must be 32 hex digits (16 octets, as HCI carries the key), found '\(v)'") }
                    ltk = bytes
                case "--channel":
                    let v = try value("--channel")
                    channel = try LoopbackOptions.channelModel(v)
                case "--snr":
                    let v = try value("--snr")
                    guard let s = Double(v), (-10...80).contains(s) else { throw .usage("--snr must be a number from -10 to 80 dB, found '\(v)'") }
                    snr = s
                case "--seed":
                    let v = try value("--seed")
                    guard let s = UInt64(v) else { throw .usage("--seed must be a non-negative integer, found '\(v)'") }
                    seed = s
                case "--caps-layout":
                    let v = try value("--caps-layout")
                    switch v {
                    case "zephyr": layout = .v2
                    case "bumble": layout = .v2WithPHYSpecificRTT
                    default: throw .usage("--caps-layout must be zephyr or bumble, found '\(v)'")
                    }
                case "--btsnoop": btsnoop = try value("--btsnoop")
                default: throw .usage("serve: unknown option '\(args[i])' (see reflector-emu serve --help)")
                }
                i += 1
            }
            guard (ptyLink == nil) != (port == nil) else { throw .usage("serve: give exactly one of --pty LINK and --port DEVICE") }
        }
    }

    /// XX:XX:XX:XX:XX:XX, most significant octet first, as addresses are written.
    static func address(_ text: String) -> UInt64? {
        let parts = text.split(separator: ":")
        guard parts.count == 6 else { return nil }
        var v: UInt64 = 0
        for p in parts {
            guard p.count == 2, let b = UInt8(p, radix: 16) else { return nil }
            v = v << 8 | UInt64(b)
        }
        return v
    }

    static func hexBytes(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var i = text.startIndex
        while i < text.endIndex {
            let j = text.index(i, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
            guard let b = UInt8(text[i..<j], radix: 16) else { return nil }
            out.append(b)
            i = j
        }
        return out
    }

    /// Serves until stopped; `emit` gets the `ready` line and the closing summary.
    public static func run(_ args: [String], emit: (String) -> Void) throws(ToolError) {
        if args.contains("--help") || args.contains("-h") { return emit(help) }
        let o = try Options(args)
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
        var scenario = AirScenario(seed: o.seed, geometry: AirGeometry(distance: o.distance), channelModel: o.channel, snrDB: o.snr)
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
