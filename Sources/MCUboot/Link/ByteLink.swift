/// A byte pipe to a bootloader: a serial port, a pseudo-terminal, or anything else that moves
/// octets. MCUboot's flash logic is written against this protocol and does no I/O of its own;
/// SerialTransport's `SerialByteLink` implements it over its serial ports and ptys, and tests
/// can implement it in memory.
///
/// Every read has a timeout; a link reports silence as no bytes, and a broken link by throwing
/// its own typed `Failure` (SerialTransport's `SerialError`, with messages a user can act on).
public protocol ByteLink {
    associatedtype Failure: Error
    /// Writes all of `bytes` or throws.
    func write(_ bytes: [UInt8]) throws(Failure)
    /// Returns up to `max` octets as soon as some arrive, or an empty array when none arrived
    /// within `timeoutMilliseconds` (0: do not wait). Throws when the link failed or closed.
    func read(max: Int, timeoutMilliseconds: Int) throws(Failure) -> [UInt8]
}
