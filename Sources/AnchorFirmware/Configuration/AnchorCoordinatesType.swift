/// Which coordinate system an anchor's location uses, numbered as the FiRa DTM location type
/// octet (Qorvo `enum fira_dt_location_coord_system_type`: 0 WGS-84, 1 relative), which also
/// matches Apple's `NIDLTDOACoordinatesType` (.geodetic = 0, .relative = 1).
public enum AnchorCoordinatesType: UInt8, Equatable, Hashable, Sendable {
    case wgs84 = 0
    case relative = 1

    /// Octets of the FiRa encoding that follows the type octet.
    public var encodedLength: Int {
        switch self {
        case .wgs84: 12
        case .relative: 10
        }
    }
}
