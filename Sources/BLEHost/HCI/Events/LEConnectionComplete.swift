import ReflectorFirmware

/// LE Connection Complete (LE Meta 0x01, Core 6.0 Vol 4 Part E §7.7.65.1): `Status 1 |
/// Connection_Handle 2 | Role 1 (0 central, 1 peripheral) | Peer_Address_Type 1 (0–1) |
/// Peer_Address 6 | Connection_Interval 2 | Peripheral_Latency 2 | Supervision_Timeout 2 |
/// Central_Clock_Accuracy 1 (0–7)`, 18 octets after the subevent code. Interval in 1.25 ms,
/// timeout in 10 ms. The Enhanced forms (`LEEnhancedConnectionComplete`) are this with two
/// resolvable private addresses.
public struct LEConnectionComplete: LEMetaSubevent, HCIFieldCodec {
    public static let subeventCode = LESubeventCode.connectionComplete
    public static var name: StaticString { "LE Connection Complete" }

    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var role: LinkRole
    public var peerAddressType: AddressType
    public var peerAddress: UInt64
    public var interval: UInt16
    public var peripheralLatency: UInt16
    public var supervisionTimeout: UInt16
    /// 500 ppm 0 … 20 ppm 7.
    public var centralClockAccuracy: UInt8

    public init(status: HCIStatus = .success, connectionHandle: UInt16, role: LinkRole, peerAddressType: AddressType = .public, peerAddress: UInt64,
                interval: UInt16, peripheralLatency: UInt16 = 0, supervisionTimeout: UInt16 = 400, centralClockAccuracy: UInt8 = 0) {
        (self.status, self.connectionHandle, self.role, self.peerAddressType, self.peerAddress) = (status, connectionHandle, role, peerAddressType, peerAddress)
        (self.interval, self.peripheralLatency, self.supervisionTimeout, self.centralClockAccuracy) = (interval, peripheralLatency, supervisionTimeout, centralClockAccuracy)
    }

    public static let fields: [HCIField<Self>] = fields(peerAddressTypes: 0...1)
    public static var blank: Self { Self(connectionHandle: 0, role: .central, peerAddress: 0, interval: 0) }

    /// The fields, with the Peer_Address_Type values the form allows (0–1 here, 0–3 in the
    /// Enhanced forms).
    static func fields(peerAddressTypes: ClosedRange<UInt8>) -> [HCIField<Self>] {
        [.status(\.status), .handle(\.connectionHandle), .value(\.role, "Role"), .value(\.peerAddressType, "Peer_Address_Type", in: peerAddressTypes),
         .address(\.peerAddress, "Peer_Address"), .u16(\.interval, "Connection_Interval"), .u16(\.peripheralLatency, "Peripheral_Latency"),
         .u16(\.supervisionTimeout, "Supervision_Timeout"), .u8(\.centralClockAccuracy, "Central_Clock_Accuracy", in: 0...7)]
    }
}
