import Testing
@testable import AnchorFirmware

/// FiRa anchor-location encodings and the channel plan.
struct CoordinatesTests {
    /// x = 1000 → 0x00003E8 (bits 0–27), y = −2000 → 0xFFFF830 (bits 28–55), z = 300 → 0x00012C
    /// (bits 56–79): E8 03 00 | 0 (x top nibble) + 0 (y low nibble) = 00 | 83 FF FF | 2C 01 00.
    @Test func relativeExactOctets() {
        let c = AnchorCoordinates.relative(x: 1000, y: -2000, z: 300)
        #expect(c.firaOctets == [0xE8, 0x03, 0x00, 0x00, 0x83, 0xFF, 0xFF, 0x2C, 0x01, 0x00])
        #expect(AnchorCoordinates(type: .relative, firaOctets: c.firaOctets) == c)
    }

    /// latitude 47.5° · 2²⁴ = 0x2F800000 (bits 0–32), longitude −122.25° · 2²⁴ = 0x185C00000 as 33-bit
    /// two's complement (bits 33–65), altitude 100 m = 0.1 km · 2²¹ = 209 715.2 → 0x33333 (bits 66–95).
    @Test func wgs84ExactOctets() {
        let c = AnchorCoordinates.wgs84(latitude: 47.5, longitude: -122.25, altitude: 100)
        #expect(c.firaOctets == [0x00, 0x00, 0x80, 0x2F, 0x00, 0x00, 0x80, 0x0B, 0xCF, 0xCC, 0x0C, 0x00])
        guard case let .wgs84(lat, lon, alt) = AnchorCoordinates(type: .wgs84, firaOctets: c.firaOctets) else {
            Issue.record("type"); return
        }
        #expect(lat == 47.5 && lon == -122.25)
        #expect(abs(alt - 100) < 0.0005)
    }

    @Test func roundTripsAtTheLimits() {
        for c in [AnchorCoordinates.relative(x: 134_217_727, y: -134_217_727, z: -8_388_607),
                  .relative(x: -1, y: 1, z: 0), .relative(x: 0, y: 0, z: 8_388_607)] {
            #expect(AnchorCoordinates(type: .relative, firaOctets: c.firaOctets) == c)
        }
        let g = AnchorCoordinates.wgs84(latitude: -89.999_999, longitude: 179.999_999, altitude: -420.5)
        guard case let .wgs84(lat, lon, alt) = AnchorCoordinates(type: .wgs84, firaOctets: g.firaOctets) else { return }
        #expect(abs(lat + 89.999_999) < 0.6e-7 && abs(lon - 179.999_999) < 0.6e-7 && abs(alt + 420.5) < 0.0005)
    }

    /// The most negative code of each field (x = −2²⁷ mm, latitude −256°, …) is outside the
    /// documented symmetric range the encoder writes; it decodes to the limit, so the location
    /// encodes back to what was decoded. (Found by the dtframe fuzz target: a Poll's WGS-84
    /// latitude of −256° came back as −255.99999994°.)
    @Test func mostNegativeCodesDecodeToTheSymmetricLimit() {
        let relative = [UInt8](repeating: 0, count: 3) + [0x08] + [0, 0, 0x80] + [0, 0, 0x80]  // x = y = −2²⁷, z = −2²³
        let r = AnchorCoordinates(type: .relative, firaOctets: relative)
        #expect(r == .relative(x: -AnchorCoordinates.relativeXYLimit, y: -AnchorCoordinates.relativeXYLimit, z: -AnchorCoordinates.relativeZLimit))
        #expect(AnchorCoordinates(type: .relative, firaOctets: r.firaOctets) == r)
        var wgs = [UInt8](repeating: 0, count: 12)
        wgs[4] = 0x01  // latitude bit 32 alone: −2³²
        let g = AnchorCoordinates(type: .wgs84, firaOctets: wgs)
        #expect(g == .wgs84(latitude: -Double((1 << 32) - 1) / Double(1 << 24), longitude: 0, altitude: 0))
        #expect(AnchorCoordinates(type: .wgs84, firaOctets: g.firaOctets) == g)
    }

    @Test func channels() {
        #expect(UWBChannel.channel5.centreFrequencyHz == 6_489_600_000)
        #expect(UWBChannel.channel9.centreFrequencyHz == 7_987_200_000)
        #expect(UWBChannel(rawValue: 9) == .channel9 && UWBChannel(rawValue: 7) == nil)
    }
}
