import BLEHost
import Foundation
import HCITransport
import ReflectorFirmware
import SerialTransport

/// The loop every command that drives a real board runs (`range`, `accessory`), the I/O edge
/// of a pure host: time to the host, its next command and ACL packets out, one packet in (at
/// most 20 ms's wait, so the host's timers keep time), dispatched by its indicator, and each
/// of the host's outputs to the command; until the command says stop, SIGINT or SIGTERM, the
/// line fails (exit 2), or the board stays silent (exit 2, "the board went silent"). A board
/// that loses octets on the line, or leaves a command unanswered past `--timeout`, is started
/// over (`restartController`); one that answers nothing through `silentRestarts` of those
/// has gone away.
struct HostLoop<Host: BoardHost> {
    /// What the command makes of one output, or of a turn.
    enum Turn {
        case goOn
        /// More outputs to handle after this one (what answering it gave: a typed passkey).
        case handle([Host.Output])
        case stop(CommandOutcome)
    }

    let board: BoardLine
    let line: BoardLineOptions
    /// Where the loop says what it does about the port (stderr, the command's status lines).
    let status: (String) -> Void
    let start = Date()
    /// How many times in a row a silent board is reset before the loop gives up on it.
    static var silentRestarts: Int { 2 }

    /// Seconds since the loop was made: the host's clock.
    var elapsed: Double { Date().timeIntervalSince(start) }

    /// Tries to open the port again every 100 ms for `seconds`.
    private func reopen(within seconds: Int) -> Bool {
        let deadline = Date().addingTimeInterval(Double(seconds))
        while Date() < deadline, !StopSignal.requested {
            do throws(SerialError) {
                try board.reopen()
                return true
            } catch {
                usleep(100_000)
            }
        }
        return false
    }

    /// Runs `host`: `output` decides on each output, in order; `afterTurn` after each turn (the
    /// command's own timeouts and progress).
    func run(_ host: inout Host, output: (inout Host, Host.Output) -> Turn, afterTurn: (inout Host) -> Turn = { _ in .goOn }) -> CommandOutcome {
        StopSignal.install()
        var sentAt: Date?
        var channel = board.channel
        var lineFaults = channel.statistics.framingErrors + channel.statistics.droppedPartialPackets
        var silentResets = 0
        // Set after a restart for lost octets: the rest of the garbled packet may still be on its
        // way, and until the board answers the Reset, octets lost are that tail, not a new fault.
        var awaitingReset = false
        while !StopSignal.requested {
            var outputs = host.tick(now: elapsed)
            do {
                if let command = host.nextCommand() {
                    try channel.send(command)
                    sentAt = Date()
                }
                for acl in host.nextACL() { try channel.send(acl) }
                let packet = try channel.receive(timeout: 20)
                silentResets = 0
                if awaitingReset, packet.indicator == .event, (try? CommandCompleteEvent.decode(packet: packet))?.opcode == HCIOpcode.reset {
                    awaitingReset = false
                }
                outputs += host.receive(packet, now: elapsed)
            } catch .timeout {
            } catch {
                guard let wait = line.reconnectPort, error.meansThePortWentAway else { return .failure(status: 2, error.description) }
                status("\(error.description); waiting up to \(wait) s for it to come back")
                guard reopen(within: wait) else { return .failure(status: 2, "\(line.path ?? ""): the port went away and did not come back within \(wait) s") }
                channel = board.channel
                lineFaults = 0
                sentAt = nil
                status("\(line.path ?? ""): the port is back")
                outputs += host.restartController(.portReopened)
            }
            // Octets lost or garbled on the line (H4 lost sync, or a packet cut short): whatever
            // was in them may be an event the host waits for, so the board is started over.
            let faults = channel.statistics.framingErrors + channel.statistics.droppedPartialPackets
            if faults != lineFaults {
                lineFaults = faults
                if !awaitingReset {
                    channel.resynchronize()
                    outputs += host.restartController(.framingLost)
                    awaitingReset = true
                    sentAt = nil
                }
            }
            if let outcome = Self.dispatch(outputs, to: &host, output) { return outcome }
            if host.unansweredOpcode == nil { sentAt = nil }
            if let op = host.unansweredOpcode, let at = sentAt, Date().timeIntervalSince(at) * 1000 > Double(line.timeout) {
                guard silentResets < Self.silentRestarts else {
                    let path = line.path ?? ""
                    return .failure(status: 2, "\(path): the board went silent: " + line.silence(opcode: op).dropFirst(path.count + 2))
                }
                silentResets += 1
                sentAt = nil
                let restarted = host.restartController(.unanswered(opcode: op))
                if let outcome = Self.dispatch(restarted, to: &host, output) { return outcome }
            }
            switch afterTurn(&host) {
            case .stop(let outcome): return outcome
            case .handle(let more):
                if let outcome = Self.dispatch(more, to: &host, output) { return outcome }
            case .goOn: break
            }
        }
        return .success
    }

    /// Hands `outputs` to the command in order, with whatever answering one of them gives;
    /// the outcome when the command says stop.
    private static func dispatch(_ outputs: [Host.Output], to host: inout Host, _ output: (inout Host, Host.Output) -> Turn) -> CommandOutcome? {
        var pending = outputs
        var index = 0
        while index < pending.count {
            switch output(&host, pending[index]) {
            case .goOn: break
            case .handle(let more): pending += more
            case .stop(let outcome): return outcome
            }
            index += 1
        }
        return nil
    }
}
