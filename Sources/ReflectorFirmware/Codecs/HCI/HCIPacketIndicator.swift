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

/// Where each packet type keeps its payload length (Core 6.0 Vol 4 Part E §5.4.1–§5.4.5):
///
/// ```
/// command      Opcode 2            | Parameter_Total_Length 1
/// ACL          Handle + flags 2    | Data_Total_Length 2
/// synchronous  Handle + flags 2    | Data_Total_Length 1
/// event        Event_Code 1        | Parameter_Total_Length 1
/// ISO          Handle + flags 2    | ISO_Data_Load_Length 14 bits of 2 (top two bits RFU)
/// ```
///
/// All multi-octet HCI fields are little-endian. The ISO length is the low 14 bits of its
/// 16-bit field, as NimBLE and the Core's figure 5.5 have it.
extension HCIPacketIndicator {
    /// Octets of the header before its length field (opcode, handle and flags, or event code).
    public var lengthFieldOffset: Int {
        switch self {
        case .command, .aclData, .synchronousData, .isoData: 2
        case .event: 1
        }
    }

    /// Octets of the length field.
    public var lengthFieldWidth: Int {
        switch self {
        case .command, .synchronousData, .event: 1
        case .aclData, .isoData: 2
        }
    }

    /// Octets of the packet header that follows the indicator, which is where the payload length
    /// lives: command 3, ACL 4, synchronous 3, event 2, ISO 4.
    public var headerLength: Int { lengthFieldOffset + lengthFieldWidth }

    /// The largest payload the header's length field can describe: 255 for the 8-bit fields,
    /// 65 535 for ACL, 16 383 for ISO (14 bits).
    public var maximumPayloadLength: Int {
        switch self {
        case .command, .synchronousData, .event: 255
        case .aclData: 65_535
        case .isoData: 0x3FFF
        }
    }

    /// The names of the header's fields, for decode errors.
    var headerFieldName: StaticString {
        switch self {
        case .command: "Opcode"
        case .event: "Event_Code"
        case .aclData, .synchronousData, .isoData: "Handle"
        }
    }

    var lengthFieldName: StaticString {
        switch self {
        case .command, .event: "Parameter_Total_Length"
        case .aclData, .synchronousData: "Data_Total_Length"
        case .isoData: "ISO_Data_Load_Length"
        }
    }

    /// Reads the header from `r` and returns the payload length it declares.
    func readHeader(_ r: inout ByteReader) throws(DecodeError) -> Int {
        try r.skip(lengthFieldOffset, headerFieldName)
        let length = Int(try r.uint(lengthFieldWidth, lengthFieldName))
        return self == .isoData ? length & 0x3FFF : length
    }

    /// The payload length a complete header declares (the octets that follow the header).
    ///
    /// - Parameter header: at least `headerLength` octets, starting right after the indicator.
    /// - Returns: `nil` when `header` is shorter than `headerLength`.
    public func payloadLength(inHeader header: ArraySlice<UInt8>) -> Int? {
        var r = ByteReader(header)
        return try? readHeader(&r)
    }

    /// `payloadLength(inHeader:)` of an array.
    public func payloadLength(inHeader header: [UInt8]) -> Int? { payloadLength(inHeader: header[...]) }

    /// `payloadLength(inHeader:)` of any collection of octets.
    public func payloadLength(inHeader header: some Collection<UInt8>) -> Int? { payloadLength(inHeader: ArraySlice(header)) }
}
