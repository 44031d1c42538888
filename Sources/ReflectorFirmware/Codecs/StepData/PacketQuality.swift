import WireFormat

/// Packet_Quality of a mode-0/1/3 step: how well the CS_SYNC access address was received
/// (Core 6.0 Vol 4 Part E §7.7.65.44, step data). Low nibble: 0 AA check OK, 1 AA has bit
/// errors, 2 AA not found; high nibble: number of bit errors (0...15).
public struct PacketQuality: Sendable, Equatable, Hashable {
    public enum AccessAddressCheck: UInt8, Sendable, Equatable, CaseIterable {
        case ok = 0
        case bitErrors = 1
        case notFound = 2
    }

    public var accessAddressCheck: AccessAddressCheck
    /// Bit errors in the access address, 0...15.
    public var bitErrorCount: UInt8

    public init(accessAddressCheck: AccessAddressCheck = .ok, bitErrorCount: UInt8 = 0) {
        self.accessAddressCheck = accessAddressCheck
        self.bitErrorCount = bitErrorCount & 0x0F
    }

    /// Parses the octet; a low nibble above 2 is `.invalidValue`.
    public init(octet: UInt8) throws(DecodeError) {
        guard let check = AccessAddressCheck(rawValue: octet & 0x0F) else {
            throw .invalidValue(field: "Packet_Quality", value: Int(octet))
        }
        self.init(accessAddressCheck: check, bitErrorCount: octet >> 4)
    }

    public var octet: UInt8 { accessAddressCheck.rawValue | (bitErrorCount & 0x0F) << 4 }
}
