import BLEHost
import ReflectorFirmware

/// Reset, masks, information and the settings a host writes while it initialises
/// (Core 6.0 Vol 4 Part E §7.3, §7.4, §7.8).
extension BoardController {
    /// Settings a real controller keeps and the emulation has no use for, acknowledged with
    /// Success: Set Event Mask Page 2, controller-to-host flow control and host buffer size
    /// (the board never runs out of host buffers), the default PHY (the air has one).
    static let acceptedSettings: [UInt16] = [
        HCIOpcode.setEventMaskPage2, HCIOpcode.setControllerToHostFlowControl, HCIOpcode.hostBufferSize, HCIOpcode.leSetDefaultPHY,
    ]

    /// LE features the board adds to the CS controller's: LE Encryption (0), Extended Reject
    /// Indication (2), Peripheral-initiated Features Exchange (3), LE Data Packet Length
    /// Extension (5), LE Extended Advertising (12) (Core 6.0 Vol 6 Part B §4.6). With bit 12 a
    /// host may advertise, scan and connect with the extended commands, as Bumble then does.
    static let boardFeatures: UInt64 = 1 << 0 | 1 << 2 | 1 << 3 | 1 << 5 | 1 << 12

    /// Reset (§7.3.2): no connection (the peer's supervision timer ends its side), no
    /// advertising, scanning or connecting, the host's settings and the CS controller reset.
    mutating func reset(_ op: UInt16) {
        powerOn()
        complete(op, status: .success)
    }

    /// The controller starts afresh, as after power-on or a reset of its own: the link is gone
    /// (the peer's supervision timer ends its side), and so is everything the host set.
    public mutating func powerOn() {
        if link != nil {
            link = nil
            transmissions.append(.silence)
        }
        cs.resetState()
        cs.loseConnection(reason: .connectionTerminatedByLocalHost)
        _ = cs.takeEvents()
        _ = cs.takePDUs()
        events.removeAll()
        completedPackets = 0
        randomAddress = nil
        advertisingSets = [:]
        scan = nil
        scanParameters = ScanParameters()
        initiating = nil
        filterAcceptList = []
        suggestedTxOctets = 27
        suggestedTxTime = 328
        leHostSupported = false
        awaitsReset = false
    }

    /// A fault inside the controller (a watchdog, a debugger attaching, a crash): it starts
    /// afresh and tells its host with Hardware Error (Core 6.0 Vol 4 Part E §7.7.16), whose
    /// code is the controller's own; a host resets it and sets it up again.
    public mutating func hardwareFault(code: UInt8) {
        powerOn()
        events.append(HCIPacket(eventCode: HCIEventCode.hardwareError, parameters: [code]))
    }

    /// LE Set Random Address (§7.8.4); refused while advertising or scanning with it.
    mutating func setRandomAddress(_ op: UInt16, _ p: [UInt8]) {
        guard let c = try? LESetRandomAddress.decode(p) else { return complete(op, status: .invalidHCICommandParameters) }
        randomAddress = c.address
        complete(op, status: .success)
    }

    /// LE Clear / Add Device To / Remove Device From Filter Accept List (§7.8.15–§7.8.17).
    mutating func editFilterAcceptList(_ op: UInt16, _ p: [UInt8]) {
        if op == HCIOpcode.leClearFilterAcceptList {
            filterAcceptList = []
            return complete(op, status: .success)
        }
        guard p.count == 7, p[0] <= 1 else { return complete(op, status: .invalidHCICommandParameters) }
        var r = ByteReader(p[1...])
        let device = DeviceAddress((try? r.uint(6, "Address")) ?? 0, type: p[0])
        if op == HCIOpcode.leAddDeviceToFilterAcceptList {
            guard filterAcceptList.count < 8 || filterAcceptList.contains(device) else { return complete(op, status: .memoryCapacityExceeded) }
            filterAcceptList.insert(device)
        } else {
            filterAcceptList.remove(device)
        }
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

    /// Read Buffer Size (§7.4.5): `aclBuffers` ACL buffers of `aclBufferLength` octets, no SCO.
    mutating func readBufferSize(_ op: UInt16) {
        var w = ByteWriter(capacity: 8)
        w.u8(HCIStatus.success.rawValue)
        w.u16(UInt16(Self.aclBufferLength))
        w.u8(0)
        w.u16(UInt16(Self.aclBuffers))
        w.u16(0)
        complete(op, w.bytes)
    }

    /// LE Read Local Supported Features (§7.8.3): the CS controller's and the board's.
    mutating func readLocalFeatures(_ op: UInt16) {
        var w = ByteWriter(capacity: 9)
        w.u8(HCIStatus.success.rawValue)
        w.uint(localFeatures, 8)
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
