import BLEHost
import Foundation
import HCITransport
import ReflectorFirmware
import SerialTransport

/// `reflector-emu check`: asks the controller on a serial port or pty whether an iPhone will
/// range with it. Exit status 0 compatible, 1 not compatible, 2 could not ask.
public enum CheckCommand {
    public static let help = """
        usage: reflector-emu check (--port DEVICE | --pty LINK) [--baud N] [--rtscts] [--json]
                                   [--timeout MS] [--btsnoop FILE]

        Resets the controller on the other end, reads its version, supported commands, LE
        features and CS capabilities (the Core 6.3 v2 form when listed), and reports each of
        iOS's accessory requirements as pass or fail with the evidence.
        Exit status: 0 compatible, 1 not compatible, 2 could not ask.

          --port DEVICE     a serial port (a pty path works too)
          --pty LINK        a pseudo-terminal, for example one 'reflector-emu serve' created
          --baud N          baud rate (default 1000000)
          --rtscts          RTS/CTS flow control
          --json            {"controller": {...}, "requirements": [...], "compatible": ...}
          --timeout MS      how long to wait for each answer (default 3000)
          --btsnoop FILE    record the exchange

        """

    public struct Result {
        public var output: String
        public var status: Int32
        /// A one-line message for stderr when the check could not be made.
        public var error: String?
    }

    public static func run(_ args: [String]) throws(ToolError) -> Result {
        if args.contains("--help") || args.contains("-h") { return Result(output: help, status: 0) }
        var path: String?
        var baud = 1_000_000
        var rtscts = false
        var json = false
        var timeout = 3000
        var capture: String?
        var i = 0
        func value(_ flag: String) throws(ToolError) -> String {
            i += 1
            guard i < args.count, !args[i].hasPrefix("--") else { throw .usage("\(flag) needs a value") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--port", "--pty":
                guard path == nil else { throw .usage("check: give one of --port DEVICE and --pty LINK") }
                path = try value(args[i])
            case "--baud":
                let v = try value("--baud")
                guard let b = Int(v), (1200...12_000_000).contains(b) else { throw .usage("--baud must be a baud rate from 1200 to 12000000, found '\(v)'") }
                baud = b
            case "--rtscts": rtscts = true
            case "--json": json = true
            case "--timeout":
                let v = try value("--timeout")
                guard let t = Int(v), (10...60_000).contains(t) else { throw .usage("--timeout must be milliseconds from 10 to 60000, found '\(v)'") }
                timeout = t
            case "--btsnoop": capture = try value("--btsnoop")
            default: throw .usage("check: unknown option '\(args[i])' (see reflector-emu check --help)")
            }
            i += 1
        }
        guard let path else { throw .usage("check: give --port DEVICE or --pty LINK") }
        let link: SerialPort
        do {
            link = try SerialPort(path: path, configuration: SerialConfiguration(baudRate: baud, flowControl: rtscts ? .rtsCts : .none))
        } catch {
            return Result(output: "", status: 2, error: error.description)
        }
        defer { link.close() }
        let channel = HCIChannel(link: link, side: .host)
        var sink: BTSnoopFileSink?
        if let capture {
            do { sink = try BTSnoopFileSink(creatingFileAtPath: capture) } catch { throw .badFile("\(capture): cannot create the capture (\(error))") }
            channel.recorder = { try? sink?.append($0) }
        }
        defer { try? sink?.close() }

        var probe = ControllerProbe()
        while probe.outcome == nil, let command = probe.nextCommand() {
            guard let opcode = probe.waitingFor else { break }
            do {
                try channel.send(HCIPacket(indicator: .command, bytes: command))
            } catch {
                return Result(output: "", status: 2, error: "\(path): \(error.description)")
            }
            let deadline = Date().addingTimeInterval(Double(timeout) / 1000)
            while probe.waitingFor == opcode && probe.outcome == nil {
                let left = Int(deadline.timeIntervalSinceNow * 1000)
                guard left > 0 else {
                    return Result(output: "", status: 2, error: "\(path): no answer to command 0x\(String(opcode, radix: 16)) within \(timeout) ms; "
                        + "is a controller running HCI over UART (H4) there at \(baud) baud? Try --baud 115200, --rtscts, or check the board runs its HCI UART firmware")
                }
                do {
                    let packet = try channel.receive(timeout: left)
                    if packet.indicator == .event { probe.handleEvent(packet.bytes) }
                } catch .timeout {
                } catch {
                    return Result(output: "", status: 2, error: "\(path): \(error.description)")
                }
            }
        }
        switch probe.outcome {
        case .done(let findings)?:
            let report = CheckReport(findings)
            return Result(output: json ? report.json : report.text, status: report.compatible ? 0 : 1)
        case .failed(let why)?:
            return Result(output: "", status: 2, error: "\(path): \(why); this does not look like an HCI controller")
        case nil:
            return Result(output: "", status: 2, error: "\(path): the check did not finish")
        }
    }
}
