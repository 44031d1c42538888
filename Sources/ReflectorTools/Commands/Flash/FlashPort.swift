import MCUboot
import SerialTransport

/// The one place that chooses how `reflector-emu flash` reaches a board: SerialTransport's
/// `SerialPort` (libserialport, falling back to termios for ptys and odd ttys), seen by the
/// MCUboot code as a `ByteLink`.
enum FlashPort {
    static func open(path: String, baud: Int) throws(SerialError) -> any ByteLink {
        SerialByteLink(try SerialPort(path: path, configuration: SerialConfiguration(baudRate: baud, flowControl: .none)))
    }
}

/// A `SerialLink` as MCUboot's `ByteLink`: a read that times out returns no bytes.
final class SerialByteLink: ByteLink {
    let link: any SerialLink

    init(_ link: any SerialLink) { self.link = link }

    deinit { link.close() }

    func write(_ bytes: [UInt8]) throws { try link.write(bytes) }

    func read(max: Int, timeoutMilliseconds: Int) throws -> [UInt8] {
        do {
            return try link.read(max: max, timeout: timeoutMilliseconds)
        } catch .timeout {
            return []
        }
    }
}
