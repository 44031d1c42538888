import MCUboot
import SerialTransport

/// The one place that chooses how `reflector-emu flash` reaches a board: SerialTransport's
/// `SerialPort` (libserialport, falling back to termios for ptys and odd ttys), seen by the
/// MCUboot code as a `ByteLink` through SerialTransport's `SerialByteLink`.
enum FlashPort {
    static func open(path: String, baud: Int) throws(SerialError) -> any ByteLink {
        SerialByteLink(try SerialPort(path: path, configuration: SerialConfiguration(baudRate: baud, flowControl: .none)))
    }
}
