/// What an anchor advertises so that a receiver finds the DL-TDoA network before it listens on
/// UWB (Apple's `NIDLTDOAConfiguration.DiscoveryMethod` .bluetoothLowEnergy / .wifi).
///
/// Apple's discovery payload is not public (reference §2, §6.2): this is the project's own
/// format, 11 octets, little endian:
/// version (1) = 1 | session ID (4) | UWB channel (1) | short address (2) |
/// coordinates type (1, FiRa numbering: 0 WGS-84, 1 relative) | block duration ms (2).
///
/// Carried as
/// - Bluetooth LE advertising data (Core Supplement Part A §1.3, §1.11): Flags (02 01 06: LE
///   General Discoverable, BR/EDR not supported) then Service Data – 16-bit UUID (AD type 0x16)
///   with UUID 0xFFF3, little endian, then the payload. Decision [unverified]: 0xFFF3 is the
///   16-bit UUID assigned to FiRa (as FiRa's OOB specification is summarised), used because the
///   FiRa OOB advertisement is the closest public convention;
/// - a Wi-Fi vendor-specific element (IEEE 802.11-2020 §9.4.2.25): element ID 221, length,
///   OUI 5A-18-FF (in transmission order), payload. Decision: FiRa's OUI, because it is the
///   consortium's and Qorvo's frames use it; no OUI-type octet, the version octet plays that part.
public struct DiscoveryAdvertisement: Equatable, Sendable {
    public var sessionID: UInt32
    public var channel: UWBChannel
    public var shortAddress: UInt16
    public var coordinatesType: AnchorCoordinatesType
    public var blockDurationMilliseconds: UInt16

    public static let version: UInt8 = 1
    public static let payloadLength = 11
    /// FiRa's 16-bit service UUID [unverified].
    public static let serviceUUID: UInt16 = 0xFFF3
    public static let vendorElementID: UInt8 = 221
    public static let oui: [UInt8] = [0x5A, 0x18, 0xFF]

    public init(sessionID: UInt32, channel: UWBChannel, shortAddress: UInt16,
                coordinatesType: AnchorCoordinatesType, blockDurationMilliseconds: UInt16) {
        self.sessionID = sessionID
        self.channel = channel
        self.shortAddress = shortAddress
        self.coordinatesType = coordinatesType
        self.blockDurationMilliseconds = blockDurationMilliseconds
    }

    /// What a validated anchor configuration advertises.
    public init(configuration c: AnchorConfiguration) {
        self.init(sessionID: c.sessionID, channel: c.channel, shortAddress: c.shortAddress,
                  coordinatesType: c.coordinates.type,
                  blockDurationMilliseconds: UInt16(truncatingIfNeeded: c.blockDurationMilliseconds))
    }

    /// The 11-octet payload.
    public var payload: [UInt8] {
        var out: [UInt8] = [Self.version]
        out.appendLittleEndian(UInt64(sessionID), width: 4)
        out.append(channel.rawValue)
        out.appendLittleEndian(UInt64(shortAddress), width: 2)
        out.append(coordinatesType.rawValue)
        out.appendLittleEndian(UInt64(blockDurationMilliseconds), width: 2)
        return out
    }

    /// Reads an 11-octet payload.
    public init(payload: some Collection<UInt8>) throws(DiscoveryError) {
        let p = Array(payload)
        if p.count != Self.payloadLength { throw .payloadLength(found: p.count, expected: Self.payloadLength) }
        if p[0] != Self.version { throw .unsupportedVersion(p[0]) }
        guard let channel = UWBChannel(rawValue: p[5]) else { throw .invalidChannel(p[5]) }
        guard let type = AnchorCoordinatesType(rawValue: p[8]) else { throw .invalidCoordinatesType(p[8]) }
        self.init(sessionID: UInt32(p[1]) | UInt32(p[2]) << 8 | UInt32(p[3]) << 16 | UInt32(p[4]) << 24,
                  channel: channel, shortAddress: UInt16(p[6]) | UInt16(p[7]) << 8,
                  coordinatesType: type, blockDurationMilliseconds: UInt16(p[9]) | UInt16(p[10]) << 8)
    }

    /// BLE advertising data: Flags, then Service Data with UUID 0xFFF3 and the payload (18 octets).
    public var bluetoothAdvertisingData: [UInt8] {
        var out: [UInt8] = [0x02, 0x01, 0x06, UInt8(3 + Self.payloadLength), 0x16]
        out.appendLittleEndian(UInt64(Self.serviceUUID), width: 2)
        out.append(contentsOf: payload)
        return out
    }

    /// Finds and reads the service data of UUID 0xFFF3 among the AD structures of `data`.
    public init(bluetoothAdvertisingData data: some Collection<UInt8>) throws(DiscoveryError) {
        let d = Array(data)
        var i = 0
        while i < d.count {
            let length = Int(d[i])
            if length == 0 { i += 1; continue }  // early terminator padding
            if i + 1 + length > d.count { throw .truncated(offset: i) }
            if d[i + 1] == 0x16, length >= 3, UInt16(d[i + 2]) | UInt16(d[i + 3]) << 8 == Self.serviceUUID {
                try self.init(payload: d[(i + 4)..<(i + 1 + length)])
                return
            }
            i += 1 + length
        }
        throw .notFound
    }

    /// The Wi-Fi vendor-specific element: DD, length 14, 5A 18 FF, payload.
    public var wifiVendorElement: [UInt8] {
        [Self.vendorElementID, UInt8(3 + Self.payloadLength)] + Self.oui + payload
    }

    /// Finds and reads the vendor element with FiRa's OUI among the elements of `elements`.
    public init(wifiElements elements: some Collection<UInt8>) throws(DiscoveryError) {
        let e = Array(elements)
        var i = 0
        while i < e.count {
            if i + 2 > e.count { throw .truncated(offset: i) }
            let length = Int(e[i + 1])
            if i + 2 + length > e.count { throw .truncated(offset: i) }
            if e[i] == Self.vendorElementID, length >= 3,
               e[i + 2] == Self.oui[0], e[i + 3] == Self.oui[1], e[i + 4] == Self.oui[2] {
                try self.init(payload: e[(i + 5)..<(i + 2 + length)])
                return
            }
            i += 2 + length
        }
        throw .notFound
    }
}
