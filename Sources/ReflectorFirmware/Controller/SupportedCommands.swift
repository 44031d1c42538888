/// The Supported_Commands bitmap of Read Local Supported Commands (Core 6.0 Vol 4 Part E §6.27):
/// 64 octets, one bit per command. A controller builds it from the opcodes it answers, so the
/// bitmap cannot drift from the dispatch (`CSController.answeredOpcodes`, the virtual board's
/// handler table).
///
/// The positions are those of the spec's table as Bumble's `HCI_SUPPORTED_COMMANDS_MASKS`
/// carries them (SupportedCommandsTests compares every entry with an installed Bumble); the
/// controllers of Zephyr (`read_supported_commands` in its hci.c) and NimBLE
/// (`ble_ll_supp_cmd.c`) set the same octets where we looked: LE Set Host Feature 44.1 (which a
/// host must see before it turns CS on), LE Read Buffer Size v2 41.5, data length 33.6–35.3,
/// PHY 35.4–35.5. Read
/// Local Supported Commands itself has no bit; nor, in the public tables, does LE CS Write
/// Cached Remote Supported Capabilities v2 (0x20A6) [U: Core 6.3's octet for it is not in
/// Bumble or Zephyr yet], so neither is marked.
public enum SupportedCommands {
    /// Octet and bit of every command in `HCIOpcode` that has one.
    public static let positions: [(opcode: UInt16, octet: UInt8, bit: UInt8)] = [
        (HCIOpcode.disconnect, 0, 5),
        (HCIOpcode.readRemoteVersionInformation, 2, 7),
        (HCIOpcode.setEventMask, 5, 6),
        (HCIOpcode.reset, 5, 7),
        (HCIOpcode.setControllerToHostFlowControl, 10, 5),
        (HCIOpcode.hostBufferSize, 10, 6),
        (HCIOpcode.leCSReadRemoteFAETable, 12, 2),
        (HCIOpcode.leCSWriteCachedRemoteFAETable, 12, 3),
        (HCIOpcode.readLocalVersionInformation, 14, 3),
        (HCIOpcode.readLocalSupportedFeatures, 14, 5),
        (HCIOpcode.readBufferSize, 14, 7),
        (HCIOpcode.readBDAddr, 15, 1),
        (HCIOpcode.leCSCreateConfig, 16, 6),
        (HCIOpcode.leCSRemoveConfig, 16, 7),
        (HCIOpcode.leCSReadLocalSupportedCapabilities, 20, 5),
        (HCIOpcode.leCSReadRemoteSupportedCapabilities, 20, 6),
        (HCIOpcode.leCSWriteCachedRemoteSupportedCapabilities, 20, 7),
        (HCIOpcode.setEventMaskPage2, 22, 2),
        (HCIOpcode.leCSTest, 23, 3),
        (HCIOpcode.leCSTestEnd, 23, 4),
        (HCIOpcode.leCSSecurityEnable, 24, 1),
        (HCIOpcode.readLEHostSupport, 24, 5),
        (HCIOpcode.writeLEHostSupport, 24, 6),
        (HCIOpcode.leCSSetDefaultSettings, 24, 7),
        (HCIOpcode.leSetEventMask, 25, 0),
        (HCIOpcode.leReadBufferSize, 25, 1),
        (HCIOpcode.leReadLocalSupportedFeatures, 25, 2),
        (HCIOpcode.leSetRandomAddress, 25, 4),
        (HCIOpcode.leSetAdvertisingParameters, 25, 5),
        (HCIOpcode.leReadAdvertisingPhysicalChannelTxPower, 25, 6),
        (HCIOpcode.leSetAdvertisingData, 25, 7),
        (HCIOpcode.leSetScanResponseData, 26, 0),
        (HCIOpcode.leSetAdvertisingEnable, 26, 1),
        (HCIOpcode.leSetScanParameters, 26, 2),
        (HCIOpcode.leSetScanEnable, 26, 3),
        (HCIOpcode.leCreateConnection, 26, 4),
        (HCIOpcode.leCreateConnectionCancel, 26, 5),
        (HCIOpcode.leReadFilterAcceptListSize, 26, 6),
        (HCIOpcode.leClearFilterAcceptList, 26, 7),
        (HCIOpcode.leAddDeviceToFilterAcceptList, 27, 0),
        (HCIOpcode.leRemoveDeviceFromFilterAcceptList, 27, 1),
        (HCIOpcode.leReadRemoteFeatures, 27, 5),
        (HCIOpcode.leRand, 27, 7),
        (HCIOpcode.leEnableEncryption, 28, 0),
        (HCIOpcode.leLongTermKeyRequestReply, 28, 1),
        (HCIOpcode.leLongTermKeyRequestNegativeReply, 28, 2),
        (HCIOpcode.leReadSupportedStates, 28, 3),
        (HCIOpcode.leCSSetChannelClassification, 29, 0),
        (HCIOpcode.leCSSetProcedureParameters, 29, 1),
        (HCIOpcode.leCSProcedureEnable, 29, 2),
        (HCIOpcode.leSetDataLength, 33, 6),
        (HCIOpcode.leReadSuggestedDefaultDataLength, 33, 7),
        (HCIOpcode.leWriteSuggestedDefaultDataLength, 34, 0),
        (HCIOpcode.leReadMaximumDataLength, 35, 3),
        (HCIOpcode.leReadPHY, 35, 4),
        (HCIOpcode.leSetDefaultPHY, 35, 5),
        (HCIOpcode.leSetAdvertisingSetRandomAddress, 36, 1),
        (HCIOpcode.leSetExtendedAdvertisingParameters, 36, 2),
        (HCIOpcode.leSetExtendedAdvertisingData, 36, 3),
        (HCIOpcode.leSetExtendedScanResponseData, 36, 4),
        (HCIOpcode.leSetExtendedAdvertisingEnable, 36, 5),
        (HCIOpcode.leReadMaximumAdvertisingDataLength, 36, 6),
        (HCIOpcode.leReadNumberOfSupportedAdvertisingSets, 36, 7),
        (HCIOpcode.leRemoveAdvertisingSet, 37, 0),
        (HCIOpcode.leClearAdvertisingSets, 37, 1),
        (HCIOpcode.leSetExtendedScanParameters, 37, 5),
        (HCIOpcode.leSetExtendedScanEnable, 37, 6),
        (HCIOpcode.leExtendedCreateConnection, 37, 7),
        (HCIOpcode.leReadBufferSizeV2, 41, 5),
        (HCIOpcode.leSetHostFeature, 44, 1),
        (HCIOpcode.leCSReadLocalSupportedCapabilitiesV2, 49, 2),
    ]

    /// The octet and bit of `opcode`, or nil when it has none (or is not in the table).
    public static func position(of opcode: UInt16) -> (octet: UInt8, bit: UInt8)? {
        for p in positions where p.opcode == opcode { return (p.octet, p.bit) }
        return nil
    }

    /// The 64 octets with the bit of every command in `opcodes` set.
    public static func bitmap(of opcodes: some Sequence<UInt16>) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: 64)
        for op in opcodes {
            if let p = position(of: op) { b[Int(p.octet)] |= 1 << p.bit }
        }
        return b
    }
}
