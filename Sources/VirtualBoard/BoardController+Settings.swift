import ReflectorFirmware

/// Reset, masks, information and the settings a host writes while it initialises
/// (Core 6.0 Vol 4 Part E §7.3, §7.4, §7.8).
extension BoardController {
    /// Settings a real controller keeps and the emulation has no use for, acknowledged with
    /// Success: Set Event Mask Page 2, controller-to-host flow control and host buffer size,
    /// default data length and PHY, the filter accept list, the random address, advertising
    /// and scan parameters and data.
    static let acceptedSettings: [UInt16] = [
        HCIOpcode.setEventMaskPage2, HCIOpcode.setControllerToHostFlowControl, HCIOpcode.hostBufferSize,
        HCIOpcode.leWriteSuggestedDefaultDataLength, HCIOpcode.leSetDefaultPHY, HCIOpcode.leClearFilterAcceptList,
        HCIOpcode.leAddDeviceToFilterAcceptList, HCIOpcode.leRemoveDeviceFromFilterAcceptList, HCIOpcode.leSetRandomAddress,
        HCIOpcode.leSetAdvertisingParameters, HCIOpcode.leSetAdvertisingData, HCIOpcode.leSetScanResponseData,
        HCIOpcode.leSetScanParameters,
    ]

    /// LE features the board adds to the CS controller's: LE Encryption (0), Extended Reject
    /// Indication (2), Peripheral-initiated Features Exchange (3), LE Data Packet Length
    /// Extension (5) (Core 6.0 Vol 6 Part B §4.6).
    static let boardFeatures: UInt64 = 1 << 0 | 1 << 2 | 1 << 3 | 1 << 5

    /// Reset (§7.3.2): no connection, no advertising or scanning, the CS controller reset.
    mutating func reset(_ op: UInt16) {
        connected = false
        encrypted = false
        cs.connection.handle = 0xFFFF
        cs.resetState()
        advertising = false
        scanning = false
        connectAt = nil
        pendingUnknownConnect = false
        leHostSupported = false
        complete(op, status: .success)
    }

    /// Set Event Mask (§7.3.1): eight octets.
    mutating func setEventMask(_ op: UInt16, _ p: [UInt8]) {
        guard p.count == 8 else { return complete(op, status: .invalidHCICommandParameters) }
        cs.masks.events = EventMasks.mask(p)
        complete(op, status: .success)
    }

    /// Write LE Host Support (§7.3.79): LE_Supported_Host, Unused.
    mutating func writeLEHostSupport(_ op: UInt16, _ p: [UInt8]) {
        leHostSupported = p.first == 1
        complete(op, status: .success)
    }

    /// Read LE Host Support (§7.3.78): Status, LE_Supported_Host, Unused.
    mutating func readLEHostSupport(_ op: UInt16) {
        complete(op, [HCIStatus.success.rawValue, leHostSupported ? 1 : 0, 0])
    }

    /// Read Local Supported Commands (§7.4.2): the board's table and the CS controller's commands.
    mutating func readLocalSupportedCommands(_ op: UInt16) {
        complete(op, [HCIStatus.success.rawValue] + SupportedCommands.bitmap(of: Self.answeredOpcodes))
    }

    /// Read Buffer Size (§7.4.5): 251-octet ACL buffers, 4 of them, no SCO.
    mutating func readBufferSize(_ op: UInt16) {
        complete(op, [HCIStatus.success.rawValue, 251, 0, 0, 4, 0, 0, 0])
    }

    /// LE Read Local Supported Features (§7.8.3): the CS controller's and the board's.
    mutating func readLocalFeatures(_ op: UInt16) {
        var w = ByteWriter(capacity: 9)
        w.u8(HCIStatus.success.rawValue)
        w.uint(cs.leFeatures | Self.boardFeatures, 8)
        complete(op, w.bytes)
    }

    /// LE Rand (§7.8.23): eight octets from the board's seeded generator.
    mutating func rand(_ op: UInt16) {
        var w = ByteWriter(capacity: 9)
        w.u8(HCIStatus.success.rawValue)
        w.uint(random.next(), 8)
        complete(op, w.bytes)
    }

    /// LE Read Supported States (§7.8.27): every state and combination up to bit 41.
    mutating func readSupportedStates(_ op: UInt16) {
        complete(op, [HCIStatus.success.rawValue, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x03, 0, 0])
    }

    /// LE Set Data Length (§7.8.33): Status, Connection_Handle.
    mutating func setDataLength(_ op: UInt16) {
        complete(op, status: connected ? .success : .unknownConnectionIdentifier, handle: handle)
    }

    /// LE Read Suggested Default Data Length (§7.8.34): 251 octets, 2120 µs.
    mutating func readSuggestedDefaultDataLength(_ op: UInt16) {
        complete(op, [HCIStatus.success.rawValue, 251, 0, 0x48, 0x08])
    }

    /// LE Read Maximum Data Length (§7.8.46): 251 octets and 2120 µs both ways.
    mutating func readMaximumDataLength(_ op: UInt16) {
        complete(op, [HCIStatus.success.rawValue, 251, 0, 0x48, 0x08, 251, 0, 0x48, 0x08])
    }

    /// LE Read PHY (§7.8.47): Status, Connection_Handle, TX_PHY, RX_PHY (LE 1M both ways).
    mutating func readPHY(_ op: UInt16) {
        var w = ByteWriter(capacity: 5)
        w.u8(connected ? HCIStatus.success.rawValue : HCIStatus.unknownConnectionIdentifier.rawValue)
        w.u16(handle)
        w.u8(1)
        w.u8(1)
        complete(op, w.bytes)
    }
}
