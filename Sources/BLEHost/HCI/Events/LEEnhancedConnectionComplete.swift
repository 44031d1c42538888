import ReflectorFirmware

/// LE Enhanced Connection Complete v1 (LE Meta 0x0A, Core 6.0 Vol 4 Part E §7.7.65.10):
/// `Status 1 | Connection_Handle 2 | Role 1 (0–1) | Peer_Address_Type 1 (0–3) | Peer_Address 6 |
/// Local_Resolvable_Private_Address 6 | Peer_Resolvable_Private_Address 6 | Connection_Interval 2 |
/// Peripheral_Latency 2 | Supervision_Timeout 2 | Central_Clock_Accuracy 1 (0–7)`, 30 octets
/// after the subevent code. The v2 form (0x29) is `LEEnhancedConnectionCompleteV2`.
public struct LEEnhancedConnectionComplete: LEMetaSubevent {
    public static let subeventCode = LESubeventCode.enhancedConnectionComplete

    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var role: UInt8
    public var peerAddressType: UInt8
    public var peerAddress: UInt64
    public var localResolvablePrivateAddress: UInt64
    public var peerResolvablePrivateAddress: UInt64
    public var interval: UInt16
    public var peripheralLatency: UInt16
    public var supervisionTimeout: UInt16
    public var centralClockAccuracy: UInt8

    public init(status: HCIStatus = .success, connectionHandle: UInt16, role: UInt8, peerAddressType: UInt8 = 0, peerAddress: UInt64,
                localResolvablePrivateAddress: UInt64 = 0, peerResolvablePrivateAddress: UInt64 = 0, interval: UInt16,
                peripheralLatency: UInt16 = 0, supervisionTimeout: UInt16 = 400, centralClockAccuracy: UInt8 = 0) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.role = role
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.localResolvablePrivateAddress = localResolvablePrivateAddress
        self.peerResolvablePrivateAddress = peerResolvablePrivateAddress
        self.interval = interval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
        self.centralClockAccuracy = centralClockAccuracy
    }

    public var parameterCapacity: Int { 30 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.u8(role)
        w.u8(peerAddressType)
        w.address(peerAddress)
        w.address(localResolvablePrivateAddress)
        w.address(peerResolvablePrivateAddress)
        w.u16(interval)
        w.u16(peripheralLatency)
        w.u16(supervisionTimeout)
        w.u8(centralClockAccuracy)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let s = try r.status()
        let h = try r.connectionHandle()
        let role = try r.u8("Role", in: 0...1)
        let pt = try r.u8("Peer_Address_Type", in: 0...3)
        let pa = try r.address("Peer_Address")
        let local = try r.address("Local_Resolvable_Private_Address")
        let peerRPA = try r.address("Peer_Resolvable_Private_Address")
        let i = try r.u16("Connection_Interval")
        let l = try r.u16("Peripheral_Latency")
        let t = try r.u16("Supervision_Timeout")
        return Self(status: s, connectionHandle: h, role: role, peerAddressType: pt, peerAddress: pa, localResolvablePrivateAddress: local,
                    peerResolvablePrivateAddress: peerRPA, interval: i, peripheralLatency: l, supervisionTimeout: t,
                    centralClockAccuracy: try r.u8("Central_Clock_Accuracy", in: 0...7))
    }
}
