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

    static func octets(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> UInt64(8 * $0)) } }

    /// A readable name for error messages.
    static func name(_ opcode: UInt16) -> String {
        switch opcode {
        case 0x0C03: return "Reset"
        case 0x0C01: return "Set Event Mask"
        case 0x2001: return "LE Set Event Mask"
        case 0x2074: return "LE Set Host Feature"
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
