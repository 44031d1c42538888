/// The FiRa DTM anchor-location encodings (FiRa MAC 2.0 5.9.13.2 as quoted by Qorvo
/// `fira_time_sync.h` and Android `DlTdoaMeasurement`):
/// - relative, 10 octets: x 28 bits (0–27), y 28 bits (28–55), z 24 bits (56–79), millimetres,
///   two's complement, little-endian bit packing;
/// - WGS-84, 12 octets: "33-bits latitude, 33-bits longitude, 30-bits altitude", latitude and
///   longitude Q9.24 degrees (2⁻²⁴° ≈ 6.6 mm), altitude Q9.21 km (≈ 0.48 mm), as Android's stated
///   resolutions imply.
///
/// Decision [unverified]: WGS-84 packs latitude at bits 0–32, longitude 33–65, altitude 66–95,
/// little-endian, because that is the relative format's order and the order the Qorvo comment
/// lists them in; the FiRa text itself was not available.
extension AnchorCoordinates {
    /// The octets after the location-type octet.
    public var firaOctets: [UInt8] {
        switch self {
        case let .relative(x, y, z):
            var out = [UInt8](repeating: 0, count: 10)
            BitField.put(Int64(Self.clamp(x, Self.relativeXYLimit)), width: 28, at: 0, into: &out)
            BitField.put(Int64(Self.clamp(y, Self.relativeXYLimit)), width: 28, at: 28, into: &out)
            BitField.put(Int64(Self.clamp(z, Self.relativeZLimit)), width: 24, at: 56, into: &out)
            return out
        case let .wgs84(latitude, longitude, altitude):
            var out = [UInt8](repeating: 0, count: 12)
            BitField.put(Self.fixed(latitude, fractionBits: 24, width: 33), width: 33, at: 0, into: &out)
            BitField.put(Self.fixed(longitude, fractionBits: 24, width: 33), width: 33, at: 33, into: &out)
            BitField.put(Self.fixed(altitude / 1000, fractionBits: 21, width: 30), width: 30, at: 66, into: &out)
            return out
        }
    }

    /// Decodes `octets` (exactly `type.encodedLength` of them) of the given type. Each field's
    /// most negative code (−2^(width−1)) is read as the symmetric limit −(2^(width−1) − 1), the
    /// range `AnchorCoordinates` documents and the encoder writes, so every decoded location
    /// encodes back to itself.
    public init(type: AnchorCoordinatesType, firaOctets octets: some Collection<UInt8>) {
        func field(_ width: Int, at offset: Int) -> Int64 {
            let limit = (Int64(1) << Int64(width - 1)) - 1
            return max(BitField.signed(width: width, at: offset, in: octets), -limit)
        }
        switch type {
        case .relative:
            self = .relative(x: Int32(field(28, at: 0)), y: Int32(field(28, at: 28)), z: Int32(field(24, at: 56)))
        case .wgs84:
            self = .wgs84(
                latitude: Double(field(33, at: 0)) / Double(1 << 24),
                longitude: Double(field(33, at: 33)) / Double(1 << 24),
                altitude: Double(field(30, at: 66)) / Double(1 << 21) * 1000)
        }
    }

    static func clamp(_ v: Int32, _ limit: Int32) -> Int32 { min(max(v, -limit), limit) }

    /// `value` in fixed point with `fractionBits`, rounded to nearest and clamped to `width` bits.
    static func fixed(_ value: Double, fractionBits: Int, width: Int) -> Int64 {
        let limit = Double((Int64(1) << Int64(width - 1)) - 1)
        let scaled = (value * Double(Int64(1) << Int64(fractionBits))).rounded()
        guard scaled == scaled else { return 0 }  // NaN
        return Int64(min(max(scaled, -limit), limit))
    }
}
