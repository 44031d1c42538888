import BLEHost
import Foundation
import HCITransport
import ReflectorFirmware
import SerialTransport

/// Asks the controller on a line what it is (`ControllerProbe`: Reset, version, supported
/// commands, LE features, CS capabilities), waiting at most `timeout` ms for each answer: what
/// `check` reports on and `range` checks first.
enum BoardProbe {
    /// Why the controller could not be asked, as one line with what to try.
    struct Failure: Error, Equatable {
        var message: String
    }

    static func run(_ channel: HCIChannel, path: String, baud: Int, timeout: Int) -> Result<ControllerProbe.Findings, Failure> {
        var probe = ControllerProbe()
        while probe.outcome == nil, let command = probe.nextCommand() {
            guard let opcode = probe.waitingFor else { break }
            do {
                try channel.send(HCIPacket(indicator: .command, bytes: command))
            } catch {
                return .failure(Failure(message: "\(path): \(error.description)"))
            }
            let deadline = Date().addingTimeInterval(Double(timeout) / 1000)
            while probe.waitingFor == opcode && probe.outcome == nil {
                let left = Int(deadline.timeIntervalSinceNow * 1000)
                guard left > 0 else { return .failure(Failure(message: silence(path: path, opcode: opcode, timeout: timeout, baud: baud))) }
                do {
                    let packet = try channel.receive(timeout: left)
                    if packet.indicator == .event { probe.handleEvent(packet.bytes) }
                } catch .timeout {
                } catch {
                    return .failure(Failure(message: "\(path): \(error.description)"))
                }
            }
        }
        switch probe.outcome {
        case .done(let findings)?: return .success(findings)
        case .failed(let why)?: return .failure(Failure(message: "\(path): \(why); this does not look like an HCI controller"))
        case nil: return .failure(Failure(message: "\(path): the check did not finish"))
        }
    }

    /// What to say when a command goes unanswered.
    static func silence(path: String, opcode: UInt16, timeout: Int, baud: Int) -> String {
        "\(path): no answer to command 0x\(String(opcode, radix: 16)) within \(timeout) ms; "
            + "is a controller running HCI over UART (H4) there at \(baud) baud? Try --baud 115200, --rtscts, or check the board runs its HCI UART firmware"
    }
}
