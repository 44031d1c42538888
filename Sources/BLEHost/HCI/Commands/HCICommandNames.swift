import ReflectorFirmware

/// The commands this project's hosts send, by type, so that an opcode in a message is named by
/// its codec (`HCICommand.name`), as Bumble names a command by its class: nothing here is a
/// hand-written table of names.
public enum HCICommandNames {
    /// Every command type the hosts send.
    public static let types: [any HCICommand.Type] = [
        Reset.self, ReadLocalVersionInformation.self, ReadLocalSupportedCommands.self, SetEventMask.self, LESetEventMask.self,
        LEReadBufferSize.self, ReadBDAddr.self, LEReadLocalSupportedFeatures.self, LESetHostFeature.self,
        LESetAdvertisingParameters.self, LESetAdvertisingData.self, LESetScanResponseData.self, LESetAdvertisingEnable.self,
        LESetExtendedAdvertisingParameters.self, LESetExtendedAdvertisingData.self, LESetExtendedScanResponseData.self,
        LESetExtendedAdvertisingEnable.self, LESetRandomAddress.self, LESetScanParameters.self, LESetScanEnable.self,
        LESetExtendedScanParameters.self, LESetExtendedScanEnable.self, LECreateConnection.self, LEExtendedCreateConnection.self,
        LECreateConnectionCancel.self, Disconnect.self, LEEnableEncryption.self, LELongTermKeyRequestReply.self,
        LELongTermKeyRequestNegativeReply.self, LESetDataLength.self, LEReadRemoteFeatures.self, ReadRemoteVersionInformation.self,
        LECSReadLocalSupportedCapabilities.self, LECSReadLocalSupportedCapabilitiesV2.self, LECSReadRemoteSupportedCapabilities.self,
        LECSWriteCachedRemoteSupportedCapabilities.self, LECSWriteCachedRemoteSupportedCapabilitiesV2.self, LECSSecurityEnable.self,
        LECSSetDefaultSettings.self, LECSReadRemoteFAETable.self, LECSWriteCachedRemoteFAETable.self, LECSCreateConfig.self,
        LECSRemoveConfig.self, LECSSetChannelClassification.self, LECSSetProcedureParameters.self, LECSProcedureEnable.self, LECSTestEnd.self,
    ]

    /// The name of the command with `opcode` ("LE CS Create Config"), or its opcode in hex.
    public static func name(_ opcode: UInt16) -> String {
        types.first { $0.opcode == opcode }.map { "\($0.name)" } ?? "command 0x" + String(opcode, radix: 16)
    }
}
