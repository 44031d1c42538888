import Testing
@testable import AnchorFirmware

/// The project's discovery payload in BLE advertising data and a Wi-Fi vendor element.
struct DiscoveryTests {
    static let ad = DiscoveryAdvertisement(sessionID: 0x1111_1111, channel: .channel9, shortAddress: 0x1234,
                                           coordinatesType: .relative, blockDurationMilliseconds: 200)
    // version 01 | session 11 11 11 11 | channel 09 | address 34 12 | relative 01 | 200 ms C8 00
    static let payload: [UInt8] = [0x01, 0x11, 0x11, 0x11, 0x11, 0x09, 0x34, 0x12, 0x01, 0xC8, 0x00]

    @Test func exactOctets() throws {
        #expect(Self.ad.payload == Self.payload)
        // Flags (len 2, type 01, 06) | service data (len 14, type 16, UUID F3 FF) | payload
        #expect(Self.ad.bluetoothAdvertisingData == [0x02, 0x01, 0x06, 0x0E, 0x16, 0xF3, 0xFF] + Self.payload)
        // element 221 = DD, length 14, OUI 5A 18 FF, payload
        #expect(Self.ad.wifiVendorElement == [0xDD, 0x0E, 0x5A, 0x18, 0xFF] + Self.payload)
        #expect(try DiscoveryAdvertisement(bluetoothAdvertisingData: Self.ad.bluetoothAdvertisingData) == Self.ad)
        // Another element (SSID "ab") before ours.
        #expect(try DiscoveryAdvertisement(wifiElements: [0x00, 0x02, 0x61, 0x62] + Self.ad.wifiVendorElement) == Self.ad)
        let c = ConfigurationTests.base
        #expect(DiscoveryAdvertisement(configuration: c) == Self.ad)
    }

    @Test func errors() {
        #expect(throws: DiscoveryError.notFound) { try DiscoveryAdvertisement(bluetoothAdvertisingData: [0x02, 0x01, 0x06]) }
        #expect(throws: DiscoveryError.truncated(offset: 3)) {
            try DiscoveryAdvertisement(bluetoothAdvertisingData: Array(Self.ad.bluetoothAdvertisingData.dropLast()))
        }
        var bad = Self.payload
        bad[5] = 7
        #expect(throws: DiscoveryError.invalidChannel(7)) { try DiscoveryAdvertisement(payload: bad) }
        bad = Self.payload
        bad[0] = 2
        #expect(throws: DiscoveryError.unsupportedVersion(2)) { try DiscoveryAdvertisement(payload: bad) }
        #expect(throws: DiscoveryError.payloadLength(found: 10, expected: 11)) { try DiscoveryAdvertisement(payload: bad.dropLast()) }
        #expect(throws: DiscoveryError.truncated(offset: 0)) { try DiscoveryAdvertisement(wifiElements: [0xDD, 0x0E, 0x5A]) }
    }
}
