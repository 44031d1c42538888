/// A byte pipe to a bootloader: a serial port, a pseudo-terminal, or anything else that moves
/// octets. The flash logic is written against this, so the port implementation (today a file
/// descriptor, later SerialTransport's SerialPort) can change in one place.
public protocol ByteLink {
    /// Writes all of `bytes` or throws.
    func write(_ bytes: [UInt8]) throws
    /// Returns up to `max` octets as soon as some arrive, or an empty array when none arrived
    /// within `timeoutMilliseconds` (0: do not wait). Throws when the link failed or closed.
    func read(max: Int, timeoutMilliseconds: Int) throws -> [UInt8]
}
