import ReflectorFirmware

/// The commands the phone's host sends as a central before Channel Sounding: connecting and
/// encrypting (Core 6.0 Vol 4 Part E §7.8.12, §7.8.24). The controller's set-up is
/// `ControllerSetup`'s.
enum CentralCommands {
    /// LE Create Connection (0x200D, §7.8.12): scan 60 ms every 60 ms, no filter, the peer's
    /// address, a public own address, a 7.5 ms connection interval, and a 2 s supervision
    /// timeout: the least Apple's Accessory Design Guidelines accept (2 s ≤ timeout ≤ 6 s, and
    /// more than 3 × interval × (latency + 1)), so a board that resets or goes silent is known
    /// gone, and found again, within 2 s rather than 4.
    static func createConnection(_ plan: InitiatorHost.ConnectionPlan) -> HCIPacket {
        LECreateConnection(scanInterval: 0x0060, scanWindow: 0x0060, filterPolicy: 0, peerAddressType: AddressType(random: plan.peerAddressIsRandom),
                           peerAddress: plan.peerAddress, ownAddressType: .public, intervalMin: 6, intervalMax: 6, maxLatency: 0,
                           supervisionTimeout: 200, minCELength: 0, maxCELength: 0).packet
    }

    /// LE Enable Encryption (0x2019, §7.8.24) with the bond's LTK (LE Secure Connections:
    /// Random_Number and EDIV zero).
    static func enableEncryption(handle: UInt16, key: [UInt8]) -> HCIPacket {
        LEEnableEncryption(connectionHandle: handle, randomNumber: 0, encryptedDiversifier: 0, longTermKey: key).packet
    }
}
