/// The order in which a multi-octet integer's octets stand on the wire.
///
/// Bluetooth is little-endian almost everywhere: HCI (Core 6.0 Vol 4 Part E §5.2), LL PDUs
/// (Vol 6 Part B §1.2) and GATT services such as RAS, which is why `.little` is every
/// reader's and writer's default. Big-endian ("network order") fields are the exception:
/// btsnoop headers and records, the SMP header and its console length/CRC framing, and CBOR
/// arguments (RFC 8949 §3). MCUboot's image header is little-endian.
public enum Endianness: Sendable, Equatable {
    /// Least significant octet first.
    case little
    /// Most significant octet first.
    case big
}
