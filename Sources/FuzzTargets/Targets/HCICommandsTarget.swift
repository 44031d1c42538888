import BLEHost
import ReflectorFirmware

/// The HCI command codecs a controller parses (`HCIPacket`, every CS command type, and the
/// general LE commands of `BLEHost/HCI/Commands`).
/// Input: one command packet (opcode, length, parameters).
///
/// Checks: a packet that parses re-encodes to the same octets; a command whose parameters
/// decode re-encodes to parameters that decode to the same value, and encoding is stable (the
/// re-encoding re-encodes to itself). Not the very same octets: decoders ignore what the spec
/// says to ignore (Ch3c_Shape and Ch3c_Jump under #3b, RFU bits), and encoders write it as 0.
enum HCICommandsTarget {
    static let target = FuzzTarget("hci-commands", "HCI command packets into every CS and general LE command decoder, re-encoded", seeds: seeds) { bytes in
        guard let packet = try? HCIPacket(command: bytes) else { return }
        require(packet.encode() == bytes, "command packet does not re-encode to its bytes")
        check(packet, ReadRemoteVersionInformation.self)
        check(packet, LECSReadLocalSupportedCapabilities.self)
        check(packet, LECSReadLocalSupportedCapabilitiesV2.self)
        check(packet, LECSReadRemoteSupportedCapabilities.self)
        check(packet, LECSWriteCachedRemoteSupportedCapabilities.self)
        check(packet, LECSWriteCachedRemoteSupportedCapabilitiesV2.self)
        check(packet, LECSSecurityEnable.self)
        check(packet, LECSSetDefaultSettings.self)
        check(packet, LECSReadRemoteFAETable.self)
        check(packet, LECSWriteCachedRemoteFAETable.self)
        check(packet, LECSCreateConfig.self)
        check(packet, LECSRemoveConfig.self)
        check(packet, LECSSetChannelClassification.self)
        check(packet, LECSSetProcedureParameters.self)
        check(packet, LECSProcedureEnable.self)
        check(packet, LECSTestEnd.self)
        check(packet, LESetAdvertisingParameters.self)
        check(packet, LESetAdvertisingData.self)
        check(packet, LESetScanResponseData.self)
        check(packet, LESetAdvertisingEnable.self)
        check(packet, LESetScanParameters.self)
        check(packet, LESetScanEnable.self)
        check(packet, LECreateConnection.self)
        check(packet, LECreateConnectionCancel.self)
        check(packet, LESetExtendedAdvertisingParameters.self)
        check(packet, LESetExtendedAdvertisingData.self)
        check(packet, LESetExtendedScanResponseData.self)
        check(packet, LESetExtendedAdvertisingEnable.self)
        check(packet, LESetExtendedScanParameters.self)
        check(packet, LESetExtendedScanEnable.self)
        check(packet, LEExtendedCreateConnection.self)
        check(packet, Disconnect.self)
        check(packet, LEEnableEncryption.self)
        check(packet, LELongTermKeyRequestReply.self)
        check(packet, LELongTermKeyRequestNegativeReply.self)
        check(packet, LESetDataLength.self)
        check(packet, LEReadRemoteFeatures.self)
        check(packet, LESetRandomAddress.self)
    }

    static func check<C: HCICommand>(_ packet: HCIPacket, _ type: C.Type) {
        guard packet.opcode == C.opcode, let command = try? C.decode(packet: packet) else { return }
        let again = command.encode()
        let decoded = try? C.decode(again)
        require(decoded == command, "\(C.self) does not decode from its own encoding: \(hex(packet.parameters)) -> \(hex(again))")
        require(decoded?.encode() == again, "\(C.self) encoding is not stable: \(hex(again))")
    }

    static func seeds() -> [[UInt8]] {
        Set(SeedTraffic.loopbacks.flatMap(\.commands)).sorted { $0.lexicographicallyPrecedes($1) }
    }
}
