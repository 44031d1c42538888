import HCITransport
import SerialTransport
import ToolJSON

/// A board on a serial line as the host commands use it (`check`, `range`, `accessory`): the
/// port opened at the baud rate and flow control asked, its HCI channel, and, with a capture
/// path, every packet both ways recorded to a btsnoop file. `close()` closes both.
final class BoardLine {
    private(set) var port: SerialPort
    private(set) var channel: HCIChannel
    private var sink: BTSnoopFileSink?
    private let path: String
    private let configuration: SerialConfiguration

    /// A port that cannot be opened is a `.device` error (the commands answer it with exit status 2
    /// and its message), a capture that cannot be created a `.badFile` one.
    init(path: String, baud: Int, rtscts: Bool, capture: String?) throws(ToolError) {
        self.path = path
        configuration = SerialConfiguration(baudRate: baud, flowControl: rtscts ? .rtsCts : .none)
        do {
            port = try SerialPort(path: path, configuration: configuration)
        } catch {
            throw .device(error.description)
        }
        channel = HCIChannel(link: port, side: .host)
        guard let capture else { return }
        do { sink = try BTSnoopFileSink(creatingFileAtPath: capture) } catch {
            port.close()
            throw .badFile("\(capture): cannot create the capture (\(error))")
        }
        record()
    }

    /// Opens the port again at the same path (a USB CDC board that reset or was replugged comes
    /// back under it, or under a `/dev/serial/by-id` link that follows it); the capture goes on.
    func reopen() throws(SerialError) {
        port.close()
        port = try SerialPort(path: path, configuration: configuration)
        channel = HCIChannel(link: port, side: .host)
        record()
    }

    private func record() {
        guard sink != nil else { return }
        channel.recorder = { [weak self] in try? self?.sink?.append($0) }
    }

    func close() {
        try? sink?.close()
        sink = nil
        port.close()
    }
}
