import HCITransport
import SerialTransport

/// A board on a serial line as the host commands use it (`check`, `range`, `accessory`): the
/// port opened at the baud rate and flow control asked, its HCI channel, and, with a capture
/// path, every packet both ways recorded to a btsnoop file. `close()` closes both.
final class BoardLine {
    let port: SerialPort
    let channel: HCIChannel
    private var sink: BTSnoopFileSink?

    /// A port that cannot be opened is a `.device` error (the commands answer it with exit status 2
    /// and its message), a capture that cannot be created a `.badFile` one.
    init(path: String, baud: Int, rtscts: Bool, capture: String?) throws(ToolError) {
        do {
            port = try SerialPort(path: path, configuration: SerialConfiguration(baudRate: baud, flowControl: rtscts ? .rtsCts : .none))
        } catch {
            throw .device(error.description)
        }
        channel = HCIChannel(link: port, side: .host)
        guard let capture else { return }
        do { sink = try BTSnoopFileSink(creatingFileAtPath: capture) } catch {
            port.close()
            throw .badFile("\(capture): cannot create the capture (\(error))")
        }
        channel.recorder = { [weak self] in try? self?.sink?.append($0) }
    }

    func close() {
        try? sink?.close()
        sink = nil
        port.close()
    }
}
