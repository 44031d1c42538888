import ReflectorFirmware

/// The general HCI commands a host sends before Channel Sounding, with the masks that unmask
/// the CS events (Core 6.0 Vol 4 Part E §7.3.1, §7.3.2, §7.8.1, §7.8.115).
enum HostCommands {
    static let reset = HCICommandPacket(opcode: 0x0C03, parameters: [])
    /// The default event mask plus the LE Meta event (bit 61).
    static let setEventMask = HCICommandPacket(opcode: 0x0C01, parameters: octets(0x0000_1FFF_FFFF_FFFF | 1 << 61))
    /// The default LE events plus every CS event (bits 43–50) and the v2 capabilities event (55).
    static let leSetEventMask = HCICommandPacket(opcode: 0x2001, parameters: octets(0x1F | 0xFF << 43 | 1 << 55))
    /// LE Set Host Feature: bit 47, Channel Sounding host support.
    static let setCSHostSupport = HCICommandPacket(opcode: 0x2074, parameters: [47, 1])

    /// What the host waits for after LE Create Connection and LE Enable Encryption.
    static let connectionCompleteCode: UInt8 = 0x01
    static let encryptionChangeCode: UInt8 = 0x08

    /// LE Create Connection (0x200D, §7.8.12): scan 60 ms every 60 ms, no filter, the peer's
    /// address, a public own address, a 7.5 ms connection interval, 4 s supervision timeout.
    static func createConnection(_ plan: InitiatorHost.ConnectionPlan) -> HCICommandPacket {
        var w = ByteWriter(capacity: 25)
        w.u16(0x0060)
        w.u16(0x0060)
        w.u8(0)
        w.u8(plan.peerAddressIsRandom ? 1 : 0)
        w.uint(plan.peerAddress, 6)
        w.u8(0)
        w.u16(6)
        w.u16(6)
        w.u16(0)
        w.u16(400)
        w.u16(0)
        w.u16(0)
        return HCICommandPacket(opcode: 0x200D, parameters: w.bytes)
    }

    /// LE Enable Encryption (0x2019, §7.8.24) with the bond's LTK (LE Secure Connections:
    /// Random_Number and EDIV zero).
    static func enableEncryption(handle: UInt16, key: [UInt8]) -> HCICommandPacket {
        var w = ByteWriter(capacity: 28)
        w.u16(handle)
        w.uint(0, 8)
        w.u16(0)
        w.octets(key.prefix(16))
        return HCICommandPacket(opcode: 0x2019, parameters: w.bytes)
    }

    static func octets(_ v: UInt64) -> [UInt8] {
        var w = ByteWriter(capacity: 8)
        w.u64(v)
        return w.bytes
    }

    /// A readable name for error messages.
    static func name(_ opcode: UInt16) -> String {
        switch opcode {
        case 0x0C03: return "Reset"
        case 0x0C01: return "Set Event Mask"
        case 0x2001: return "LE Set Event Mask"
        case 0x2074: return "LE Set Host Feature"
        case 0x200D: return "LE Create Connection"
        case 0x2019: return "LE Enable Encryption"
        case ReadRemoteVersionInformation.opcode: return "Read Remote Version Information"
        case LECSReadLocalSupportedCapabilities.opcode: return "LE CS Read Local Supported Capabilities"
        case LECSReadLocalSupportedCapabilitiesV2.opcode: return "LE CS Read Local Supported Capabilities v2"
        case LECSReadRemoteSupportedCapabilities.opcode: return "LE CS Read Remote Supported Capabilities"
        case LECSSecurityEnable.opcode: return "LE CS Security Enable"
        case LECSSetDefaultSettings.opcode: return "LE CS Set Default Settings"
        case LECSCreateConfig.opcode: return "LE CS Create Config"
        case LECSSetProcedureParameters.opcode: return "LE CS Set Procedure Parameters"
        case LECSProcedureEnable.opcode: return "LE CS Procedure Enable"
        default: return "command 0x" + String(opcode, radix: 16)
        }
    }
}
