/// Advertising and scan response data: a sequence of AD structures, each a length, an AD type
/// and its data (Core 6.0 Vol 3 Part C §11; the types in the Core Specification Supplement Part
/// A §1 and Assigned Numbers §2.3), at most 31 octets in legacy advertising.
public struct AdvertisingData: Sendable, Equatable {
    /// The AD types this project writes or reads.
    public enum ADType: UInt8, Sendable {
        /// Flags (Supplement §1.3).
        case flags = 0x01
        /// Incomplete and complete lists of 16-bit service UUIDs (§1.1).
        case incompleteServiceUUIDs16 = 0x02
        case completeServiceUUIDs16 = 0x03
        /// Shortened and complete local name (§1.2).
        case shortenedLocalName = 0x08
        case completeLocalName = 0x09
    }

    /// Flags: LE General Discoverable Mode (bit 1), BR/EDR Not Supported (bit 2).
    public static let generalDiscoverableLEOnly: UInt8 = 0x06
    /// The room in one legacy PDU.
    public static let legacyCapacity = 31

    public private(set) var octets: [UInt8] = []

    public init() {}

    /// The octets left in a legacy PDU.
    public var room: Int { Self.legacyCapacity - octets.count }

    /// Appends one AD structure.
    public mutating func append(_ type: ADType, _ data: some Collection<UInt8>) {
        octets.append(UInt8(1 + data.count))
        octets.append(type.rawValue)
        octets += data
    }

    /// The complete list of 16-bit service UUIDs (little-endian each).
    public mutating func appendServices(_ uuids: some Collection<UInt16>) {
        append(.completeServiceUUIDs16, uuids.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    }

    /// The name, complete when it fits in what is left of a legacy PDU, else shortened to fit.
    public mutating func appendName(_ name: String) {
        let octets = Array(name.utf8)
        let fits = room - 2
        guard fits > 0, !octets.isEmpty else { return }
        append(octets.count <= fits ? .completeLocalName : .shortenedLocalName, octets.prefix(fits))
    }
}
