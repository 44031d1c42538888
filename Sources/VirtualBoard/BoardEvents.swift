import ReflectorFirmware

/// The general HCI events a virtual board sends besides the CS ones (Core 6.0 Vol 4 Part E
/// §7.7): connection, encryption, remote features and ACL flow control (Disconnection Complete
/// comes from the CS controller, which owns the connection's loss). Each
/// builds the exact parameter bytes of its event.
enum BoardEvents {
    /// LE Connection Complete (LE Meta 0x01, §7.7.65.1), or LE Enhanced Connection Complete
    /// (0x0A, §7.7.65.10) with zero resolvable private addresses when `enhanced`.
    static func connectionComplete(status: HCIStatus = .success, handle: UInt16, central: Bool, peerAddress: UInt64, peerRandom: Bool,
                                   interval: UInt16, enhanced: Bool) -> HCIPacket {
        var w = ByteWriter(capacity: 31)
        w.u8(status.rawValue)
        w.u16(handle)
        w.u8(central ? 0 : 1)
        w.u8(peerRandom ? 1 : 0)
        w.uint(peerAddress, 6)
        if enhanced {
            w.uint(0, 6)  // Local_Resolvable_Private_Address
            w.uint(0, 6)  // Peer_Resolvable_Private_Address
        }
        w.u16(interval)
        w.u16(0)  // Peripheral_Latency
        w.u16(400)  // Supervision_Timeout: 4 s
        w.u8(0)  // Central_Clock_Accuracy: 500 ppm
        return HCIPacket(leSubevent: enhanced ? LESubeventCode.enhancedConnectionComplete : LESubeventCode.connectionComplete, body: w.bytes)
    }

    /// Encryption Change (event 0x08, §7.7.8): AES-CCM on (1) or off (0).
    static func encryptionChange(status: HCIStatus, handle: UInt16, enabled: Bool) -> HCIPacket {
        var w = ByteWriter(capacity: 4)
        w.u8(status.rawValue)
        w.u16(handle)
        w.u8(enabled ? 1 : 0)
        return HCIPacket(eventCode: HCIEventCode.encryptionChange, parameters: w.bytes)
    }

    /// LE Long Term Key Request (LE Meta 0x05, §7.7.65.5): the peripheral's host is asked for
    /// the key of the bond (LE Secure Connections: Random_Number and EDIV are zero).
    static func longTermKeyRequest(handle: UInt16) -> HCIPacket {
        var w = ByteWriter(capacity: 12)
        w.u16(handle)
        w.uint(0, 8)
        w.u16(0)
        return HCIPacket(leSubevent: LESubeventCode.longTermKeyRequest, body: w.bytes)
    }

    /// LE Read Remote Features Complete (LE Meta 0x04, §7.7.65.4).
    static func remoteFeaturesComplete(handle: UInt16, features: UInt64) -> HCIPacket {
        var w = ByteWriter(capacity: 11)
        w.u8(HCIStatus.success.rawValue)
        w.u16(handle)
        w.uint(features, 8)
        return HCIPacket(leSubevent: LESubeventCode.readRemoteFeaturesComplete, body: w.bytes)
    }

    /// Number Of Completed Packets (event 0x13, §7.7.19) for one handle.
    static func completedPackets(handle: UInt16, count: UInt16) -> HCIPacket {
        var w = ByteWriter(capacity: 5)
        w.u8(1)
        w.u16(handle)
        w.u16(count)
        return HCIPacket(eventCode: HCIEventCode.numberOfCompletedPackets, parameters: w.bytes)
    }

    /// LE Advertising Report (LE Meta 0x02, §7.7.65.2): one connectable undirected report.
    static func advertisingReport(address: UInt64, random: Bool, data: [UInt8], rssi: Int8) -> HCIPacket {
        var w = ByteWriter(capacity: 12 + data.count)
        w.u8(1)  // Num_Reports
        w.u8(0x00)  // ADV_IND
        w.u8(random ? 1 : 0)
        w.uint(address, 6)
        w.u8(UInt8(min(data.count, 31)))
        w.octets(data.prefix(31))
        w.i8(rssi)
        return HCIPacket(leSubevent: LESubeventCode.advertisingReport, body: w.bytes)
    }
}
