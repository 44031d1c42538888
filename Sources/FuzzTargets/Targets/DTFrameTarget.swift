import AnchorFirmware

/// UWB DL-TDoA frames as a receiver decodes them (`DTFrame.decode`), and the anchors' discovery
/// advertisements (`DiscoveryAdvertisement` from a payload, Bluetooth LE advertising data, Wi-Fi
/// elements).
///
/// Input: a mode octet, then: mode 0 a frame as received; 1 a frame without its FCS (the target
/// appends the right one, so the fuzzer gets past the checksum); 2 a discovery payload; 3
/// Bluetooth LE advertising data; 4 Wi-Fi information elements.
///
/// Checks: a frame that decodes re-encodes to a frame that decodes to the same value (not the
/// same octets: header IEs other than FiRa's are skipped); an advertisement that decodes
/// encodes to octets that decode to it (the payload to the very same octets).
enum DTFrameTarget {
    static let target = FuzzTarget("dtframe", "DTFrame.decode (FCS fixed up or not) and the discovery advertisements", seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        let mode = input.byte() % 5
        var octets = input.rest()
        switch mode {
        case 0, 1:
            if mode == 1 { FrameCheckSequence.append(to: &octets) }
            guard let frame = try? DTFrame.decode(octets) else { return }
            let again = Result { () throws(DTFrameError) in try DTFrame.decode(frame.encode()) }
            require((try? again.get()) == frame, "frame does not decode from its own encoding: \(hex(octets)) -> \(hex(frame.encode())): \(frame) -> \(again)")
        case 2:
            guard let a = try? DiscoveryAdvertisement(payload: octets) else { return }
            require(a.payload == octets, "discovery payload re-encodes to other octets")
        case 3:
            guard let a = try? DiscoveryAdvertisement(bluetoothAdvertisingData: octets) else { return }
            require((try? DiscoveryAdvertisement(bluetoothAdvertisingData: a.bluetoothAdvertisingData)) == a, "advertising data does not decode from its encoding")
        default:
            guard let a = try? DiscoveryAdvertisement(wifiElements: octets) else { return }
            require((try? DiscoveryAdvertisement(wifiElements: a.wifiVendorElement)) == a, "Wi-Fi element does not decode from its encoding")
        }
    }

    static func seeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for frame in SeedVectors.heardFrames.prefix(12).map(\.octets) {
            out.append([0] + frame)
            out.append([1] + frame.dropLast(2))
        }
        for a in SeedVectors.advertisements {
            out.append([2] + a.payload)
            out.append([3] + a.bluetoothAdvertisingData)
            out.append([4] + a.wifiVendorElement)
        }
        return out
    }
}
