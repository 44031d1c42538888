import ReflectorFirmware

/// LE Enhanced Connection Complete v1 (LE Meta 0x0A, Core 6.0 Vol 4 Part E §7.7.65.10): LE
/// Connection Complete's fields (`connection`, read through as `role`, `peerAddress`, …) with
/// Peer_Address_Type 0–3 and, after Peer_Address, `Local_Resolvable_Private_Address 6 |
/// Peer_Resolvable_Private_Address 6`: 30 octets after the subevent code. The v2 form (0x29)
/// is `LEEnhancedConnectionCompleteV2`.
public struct LEEnhancedConnectionComplete: LEMetaSubevent, HCIFieldCodec, HCIComposedParameters {
    public static let subeventCode = LESubeventCode.enhancedConnectionComplete
    public static var name: StaticString { "LE Enhanced Connection Complete" }

    public var connection: LEConnectionComplete
    public var localResolvablePrivateAddress: UInt64
    public var peerResolvablePrivateAddress: UInt64

    public init(_ connection: LEConnectionComplete, localResolvablePrivateAddress: UInt64 = 0, peerResolvablePrivateAddress: UInt64 = 0) {
        self.connection = connection
        self.localResolvablePrivateAddress = localResolvablePrivateAddress
        self.peerResolvablePrivateAddress = peerResolvablePrivateAddress
    }

    public static let fields: [HCIField<Self>] = LEConnectionComplete.fields(peerAddressTypes: 0...3).map { $0.lifted(\Self.connection) }
        .inserting([.address(\.localResolvablePrivateAddress, "Local_Resolvable_Private_Address"),
                    .address(\.peerResolvablePrivateAddress, "Peer_Resolvable_Private_Address")], after: "Peer_Address")
    public static var blank: Self { Self(.blank) }
}
