/// Why a discovery advertisement could not be read; offsets count from the first octet given.
public enum DiscoveryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An AD structure or element runs past the end of the data.
    case truncated(offset: Int)
    /// No service data AD structure with the FiRa UUID 0xFFF3 / no element 221 with the FiRa OUI.
    case notFound
    /// The payload is shorter or longer than this version's 11 octets.
    case payloadLength(found: Int, expected: Int)
    case unsupportedVersion(UInt8)
    case invalidChannel(UInt8)
    case invalidCoordinatesType(UInt8)

    public var description: String {
        switch self {
        case let .truncated(offset): "advertisement truncated at octet \(offset)"
        case .notFound: "no anchor discovery data (FiRa UUID 0xFFF3 service data or vendor element with OUI 5A-18-FF)"
        case let .payloadLength(found, expected): "discovery payload of \(found) octets, expected \(expected)"
        case let .unsupportedVersion(v): "discovery payload version \(v), this firmware reads version 1"
        case let .invalidChannel(c): "UWB channel \(c), expected 5 or 9"
        case let .invalidCoordinatesType(t): "coordinates type \(t), expected 0 (WGS-84) or 1 (relative)"
        }
    }
}
