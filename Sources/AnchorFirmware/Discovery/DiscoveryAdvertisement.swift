import WireFormat

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
        var w = ByteWriter(capacity: Self.payloadLength)
        w.u8(Self.version)
        w.u32(sessionID)
        w.u8(channel.rawValue)
        w.u16(shortAddress)
        w.u8(coordinatesType.rawValue)
        w.u16(blockDurationMilliseconds)
        return w.bytes
    }

    /// Reads an 11-octet payload.
    public init(payload: some Collection<UInt8>) throws(DiscoveryError) {
        var r = ByteReader(payload)
        if r.remaining != Self.payloadLength { throw .payloadLength(found: r.remaining, expected: Self.payloadLength) }
        let fields: (version: UInt8, session: UInt32, channel: UInt8, address: UInt16, type: UInt8, block: UInt16)
        do throws(DecodeError) {
            fields = (try r.u8("Version"), try r.u32("Session_ID"), try r.u8("Channel"), try r.u16("Short_Address"),
                      try r.u8("Coordinates_Type"), try r.u16("Block_Duration"))
        } catch {
            throw .payloadLength(found: r.offset, expected: Self.payloadLength)  // not reached: the length is checked
        }
        if fields.version != Self.version { throw .unsupportedVersion(fields.version) }
        guard let channel = UWBChannel(rawValue: fields.channel) else { throw .invalidChannel(fields.channel) }
        guard let type = AnchorCoordinatesType(rawValue: fields.type) else { throw .invalidCoordinatesType(fields.type) }
        self.init(sessionID: fields.session, channel: channel, shortAddress: fields.address, coordinatesType: type,
                  blockDurationMilliseconds: fields.block)
    }

    /// BLE advertising data: Flags, then Service Data with UUID 0xFFF3 and the payload (18 octets).
    public var bluetoothAdvertisingData: [UInt8] {
        var w = ByteWriter(capacity: 7 + Self.payloadLength)
        w.octets([0x02, 0x01, 0x06, UInt8(3 + Self.payloadLength), 0x16])
        w.u16(Self.serviceUUID)
        w.octets(payload)
        return w.bytes
    }

    /// Finds and reads the service data of UUID 0xFFF3 among the AD structures of `data`.
    public init(bluetoothAdvertisingData data: some Collection<UInt8>) throws(DiscoveryError) {
        let d = Array(data)
        var i = 0
        while i < d.count {
            let length = Int(d[i])
            if length == 0 { i += 1; continue }  // early terminator padding
            if i + 1 + length > d.count { throw .truncated(offset: i) }
            var uuid = ByteReader(d[(i + 2)...])
            if d[i + 1] == 0x16, length >= 3, (try? uuid.u16("UUID")) == Self.serviceUUID {
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
