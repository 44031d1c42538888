import MCUboot

/// A `SerialLink` (a serial port, a terminal, or a pseudo-terminal's master) as MCUboot's
/// `ByteLink`, for `reflector-emu flash` and `mcuboot-test-bootloader`: the same poll/read/write
/// loops with deadlines (`DescriptorIO`), the same `Errno` mapping and the same `SerialError`
/// messages as every other link. The one difference is silence: MCUboot's read returns no bytes
/// when none came in time, where a `SerialLink` throws `.timeout`.
///
/// The byte link owns the serial link: releasing it closes the link.
public final class SerialByteLink<Link: SerialLink>: ByteLink {
    public let link: Link

    public init(_ link: Link) { self.link = link }

    deinit { link.close() }

    /// Hands all of `bytes` to the driver within the default write timeout.
    public func write(_ bytes: [UInt8]) throws(SerialError) { try link.write(bytes) }

    public func read(max: Int, timeoutMilliseconds: Int) throws(SerialError) -> [UInt8] {
        do {
            return try link.read(max: max, timeout: timeoutMilliseconds)
        } catch .timeout {
            return []
        }
    }
}
