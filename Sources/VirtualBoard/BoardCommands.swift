import ReflectorFirmware

/// The general HCI commands the virtual board answers itself, as a table from opcode to
/// handler (Core 6.0 Vol 4 Part E §7.1–§7.8). Everything else goes to the CS controller; the
/// table's keys are also what the board adds to the CS controller's Supported_Commands.
///
/// A handler gets the board, the opcode, the parameters (a whole, well-formed command packet's)
/// and the packet's octets (to pass on to the CS controller where the board only adds a check).
enum BoardCommands {
    typealias Handler = @Sendable (inout BoardController, UInt16, [UInt8], [UInt8]) -> Void

    static let handlers: [UInt16: Handler] = {
        var t: [UInt16: Handler] = [:]
        // Settings and information (BoardController+Settings.swift).
        t[HCIOpcode.reset] = { b, op, _, _ in b.reset(op) }
        t[HCIOpcode.setEventMask] = { b, op, p, _ in b.setEventMask(op, p) }
        for op in BoardController.acceptedSettings { t[op] = { b, op, _, _ in b.complete(op, status: .success) } }
        t[HCIOpcode.writeLEHostSupport] = { b, op, p, _ in b.writeLEHostSupport(op, p) }
        t[HCIOpcode.readLEHostSupport] = { b, op, _, _ in b.readLEHostSupport(op) }
        t[HCIOpcode.readLocalSupportedCommands] = { b, op, _, _ in b.readLocalSupportedCommands(op) }
        t[HCIOpcode.readBufferSize] = { b, op, _, _ in b.readBufferSize(op) }
        t[HCIOpcode.leReadLocalSupportedFeatures] = { b, op, _, _ in b.readLocalFeatures(op) }
        t[HCIOpcode.leReadAdvertisingPhysicalChannelTxPower] = { b, op, _, _ in b.complete(op, [HCIStatus.success.rawValue, 0]) }
        t[HCIOpcode.leReadFilterAcceptListSize] = { b, op, _, _ in b.complete(op, [HCIStatus.success.rawValue, 8]) }
        t[HCIOpcode.leRand] = { b, op, _, _ in b.rand(op) }
        t[HCIOpcode.leReadSupportedStates] = { b, op, _, _ in b.readSupportedStates(op) }
        t[HCIOpcode.leSetRandomAddress] = { b, op, p, _ in b.setRandomAddress(op, p) }
        for op in [HCIOpcode.leClearFilterAcceptList, HCIOpcode.leAddDeviceToFilterAcceptList, HCIOpcode.leRemoveDeviceFromFilterAcceptList] {
            t[op] = { b, op, p, _ in b.editFilterAcceptList(op, p) }
        }
        t[HCIOpcode.leReadMaximumDataLength] = { b, op, _, _ in b.readMaximumDataLength(op) }
        t[HCIOpcode.leReadPHY] = { b, op, _, _ in b.readPHY(op) }
        // Advertising and scanning (LinkLayer/BoardController+Advertising.swift).
        t[HCIOpcode.leSetAdvertisingParameters] = { b, op, p, _ in b.setAdvertisingParameters(op, p) }
        t[HCIOpcode.leSetAdvertisingData] = { b, op, p, _ in b.setLegacyData(op, p, scanResponse: false) }
        t[HCIOpcode.leSetScanResponseData] = { b, op, p, _ in b.setLegacyData(op, p, scanResponse: true) }
        t[HCIOpcode.leSetAdvertisingEnable] = { b, op, p, _ in b.setAdvertisingEnable(op, p) }
        t[HCIOpcode.leSetAdvertisingSetRandomAddress] = { b, op, p, _ in b.setAdvertisingSetRandomAddress(op, p) }
        t[HCIOpcode.leSetExtendedAdvertisingParameters] = { b, op, p, _ in b.setExtendedAdvertisingParameters(op, p) }
        t[HCIOpcode.leSetExtendedAdvertisingData] = { b, op, p, _ in b.setExtendedData(op, p, scanResponse: false) }
        t[HCIOpcode.leSetExtendedScanResponseData] = { b, op, p, _ in b.setExtendedData(op, p, scanResponse: true) }
        t[HCIOpcode.leSetExtendedAdvertisingEnable] = { b, op, p, _ in b.setExtendedAdvertisingEnable(op, p) }
        t[HCIOpcode.leReadMaximumAdvertisingDataLength] = { b, op, _, _ in
            b.complete(op, [HCIStatus.success.rawValue, UInt8(BoardController.maximumAdvertisingDataLength & 0xFF), UInt8(BoardController.maximumAdvertisingDataLength >> 8)])
        }
        t[HCIOpcode.leReadNumberOfSupportedAdvertisingSets] = { b, op, _, _ in
            b.complete(op, [HCIStatus.success.rawValue, BoardController.supportedAdvertisingSets])
        }
        t[HCIOpcode.leRemoveAdvertisingSet] = { b, op, p, _ in b.removeAdvertisingSet(op, p) }
        t[HCIOpcode.leClearAdvertisingSets] = { b, op, _, _ in b.clearAdvertisingSets(op) }
        t[HCIOpcode.leSetScanParameters] = { b, op, p, _ in b.setScanParameters(op, p) }
        t[HCIOpcode.leSetExtendedScanParameters] = { b, op, p, _ in b.setExtendedScanParameters(op, p) }
        t[HCIOpcode.leSetScanEnable] = { b, op, p, _ in b.setScanEnable(op, p) }
        t[HCIOpcode.leSetExtendedScanEnable] = { b, op, p, _ in b.setScanEnable(op, p) }
        // Connecting, data, disconnecting (LinkLayer/BoardController+Connection.swift, +Data.swift).
        t[HCIOpcode.leCreateConnection] = { b, op, p, _ in b.createConnection(op, p) }
        t[HCIOpcode.leExtendedCreateConnection] = { b, op, p, _ in b.createConnection(op, p) }
        t[HCIOpcode.leCreateConnectionCancel] = { b, op, _, _ in b.createConnectionCancel(op) }
        t[HCIOpcode.leReadRemoteFeatures] = { b, op, p, _ in b.readRemoteFeatures(op, p) }
        t[HCIOpcode.disconnect] = { b, op, p, _ in b.disconnect(op, p) }
        t[HCIOpcode.leSetDataLength] = { b, op, p, _ in b.setDataLength(op, p) }
        t[HCIOpcode.leWriteSuggestedDefaultDataLength] = { b, op, p, _ in b.writeSuggestedDefaultDataLength(op, p) }
        t[HCIOpcode.leReadSuggestedDefaultDataLength] = { b, op, _, _ in b.readSuggestedDefaultDataLength(op) }
        // Encryption (LinkLayer/BoardController+Encryption.swift).
        t[HCIOpcode.leEnableEncryption] = { b, op, p, _ in b.enableEncryption(op, p) }
        t[HCIOpcode.leLongTermKeyRequestReply] = { b, op, p, _ in b.longTermKeyReply(op, p) }
        t[HCIOpcode.leLongTermKeyRequestNegativeReply] = { b, op, p, _ in b.longTermKeyNegativeReply(op, p) }
        t[HCIOpcode.leCSSecurityEnable] = { b, op, _, packet in b.csSecurityEnable(op, packet) }
        return t
    }()
}
