/// Where an anchor is, as a DL-TDoA tag needs it to solve its position: either relative to a
/// local origin in millimetres or geodetic on WGS-84. The ranges are those of the FiRa encodings
/// (Android `RelativeLocation`: x, y ±134 217 727 mm, z ±8 388 607 mm; WGS-84 latitude and
/// longitude Q9.24 degrees, altitude Q9.21 km, so ±256 km).
public enum AnchorCoordinates: Equatable, Sendable {
    /// Millimetres from the site's origin.
    case relative(x: Int32, y: Int32, z: Int32)
    /// Degrees, degrees and metres (WGS-84 ellipsoid height).
    case wgs84(latitude: Double, longitude: Double, altitude: Double)

    /// Largest |x| and |y| of a relative location: 28-bit two's complement.
    public static let relativeXYLimit: Int32 = (1 << 27) - 1
    /// Largest |z| of a relative location: 24-bit two's complement.
    public static let relativeZLimit: Int32 = (1 << 23) - 1
    /// Largest |altitude| in metres: 30-bit Q9.21 kilometres.
    public static let altitudeLimitMetres: Double = Double((1 << 29) - 1) / Double(1 << 21) * 1000

    public var type: AnchorCoordinatesType {
        switch self {
        case .relative: .relative
        case .wgs84: .wgs84
        }
    }
}
