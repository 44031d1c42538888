import WireFormat

/// The H4 (UART) packet indicator that precedes every HCI packet on a serial line and in a
/// btsnoop record's payload (Core 6.0 Vol 4 Part A §2).
public enum HCIPacketIndicator: UInt8, Sendable, Equatable, CaseIterable {
    case command = 0x01
    case aclData = 0x02
    case synchronousData = 0x03
    case event = 0x04
    case isoData = 0x05
}

extension HCIPacketIndicator {
    /// Octets of the packet header that follows the indicator, which is where the payload length
    /// lives (Core 6.0 Vol 4 Part E §5.4.1–§5.4.5): command 3 (opcode, length), ACL 4
    /// (handle+flags, 16-bit length), synchronous 3 (handle+flags, 8-bit length), event 2 (code,
    /// length), ISO 4 (handle+flags, 14-bit length).
    public var headerLength: Int {
        switch self {
        case .command, .synchronousData: 3
        case .aclData, .isoData: 4
        case .event: 2
        }
    }

    /// The largest payload the header's length field can describe: 255 for the 8-bit fields,
    /// 65 535 for ACL, 16 383 for ISO (14 bits).
    public var maximumPayloadLength: Int {
        switch self {
        case .command, .synchronousData, .event: 255
        case .aclData: 65_535
        case .isoData: 0x3FFF
        }
    }

    /// The payload length a complete header declares (the octets that follow the header).
    ///
    /// - Parameter header: at least `headerLength` octets, starting right after the indicator.
    /// - Returns: `nil` when `header` is shorter than `headerLength`.
    ///
    /// All HCI multi-octet fields are little-endian. The ISO length is the low 14 bits of its
    /// 16-bit field (the top two bits are RFU), as NimBLE and the Core's figure 5.5 have it.
    public func payloadLength(inHeader header: ArraySlice<UInt8>) -> Int? {
        var r = ByteReader(header)
        do throws(DecodeError) {
            switch self {
            case .command, .synchronousData:
                try r.skip(2, "Opcode or Handle")
                return Int(try r.u8("Parameter_Total_Length"))
            case .event:
                try r.skip(1, "Event_Code")
                return Int(try r.u8("Parameter_Total_Length"))
            case .aclData:
                try r.skip(2, "Handle")
                return Int(try r.u16("Data_Total_Length"))
            case .isoData:
                try r.skip(2, "Handle")
                return Int(try r.u16("ISO_Data_Load_Length") & 0x3FFF)
            }
        } catch {
            return nil
        }
    }

    /// `payloadLength(inHeader:)` of an array.
    public func payloadLength(inHeader header: [UInt8]) -> Int? { payloadLength(inHeader: header[...]) }

    /// `payloadLength(inHeader:)` of any collection of octets.
    public func payloadLength(inHeader header: some Collection<UInt8>) -> Int? { payloadLength(inHeader: ArraySlice(header)) }
}
