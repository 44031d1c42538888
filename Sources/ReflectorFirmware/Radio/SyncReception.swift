/// What a radio reports after listening for a CS_SYNC packet.
public struct SyncReception: Sendable, Equatable {
    /// Whether the access-address correlator found the packet; false reports "AA not found".
    public var detected: Bool
    /// Bit errors in the received access address (0 when clean).
    public var accessAddressBitErrors: UInt8
    /// Received power in dBm.
    public var rssi: Int8
    /// When the packet arrived relative to when this device expected it, in units of 0.5 ns
    /// (the ToA_ToD resolution of mode-1/3 step data).
    public var arrivalOffsetHalfNanoseconds: Int32

    public init(detected: Bool, accessAddressBitErrors: UInt8 = 0, rssi: Int8, arrivalOffsetHalfNanoseconds: Int32 = 0) {
        self.detected = detected
        self.accessAddressBitErrors = accessAddressBitErrors
        self.rssi = rssi
        self.arrivalOffsetHalfNanoseconds = arrivalOffsetHalfNanoseconds
    }

    public static let missed = SyncReception(detected: false, rssi: 0x7F)

    /// Packet_Quality as step data reports it.
    public var packetQuality: PacketQuality {
        guard detected else { return PacketQuality(accessAddressCheck: .notFound) }
        return accessAddressBitErrors == 0
            ? PacketQuality()
            : PacketQuality(accessAddressCheck: .bitErrors, bitErrorCount: min(accessAddressBitErrors, 15))
    }
}
