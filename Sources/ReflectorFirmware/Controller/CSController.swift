/// The Channel Sounding part of a Bluetooth LE controller, for either role: it takes HCI
/// command packets from its host and LL control PDUs from the peer controller, answers with HCI
/// event packets and LL PDUs (always the exact bytes the spec defines), and runs the CS
/// procedures its configuration enables (Core 6.0 Vol 4 Part E §7.8.130–§7.8.144 for the
/// commands, Vol 6 Part B §5.1.23–§5.1.29 for the LL procedures, Vol 6 Part H for procedures).
///
/// It owns no transport and no radio: the caller moves bytes (`handleCommand`, `receiveFromPeer`,
/// `takeEvents`, `takePDUs`) and lends the radio for each step (`run`, or `transmit` and
/// `receive`), so the same controller runs in the emulator's loopback and behind a UART.
///
/// `Cipher` is the AES-128 behind the CS DRBG (`BlockCipher`): `AES128` in software, which the
/// initializers without a `cipher:` argument choose, or a board's ECB peripheral.
public struct CSController<Cipher: BlockCipher>: Sendable {
    public let localCapabilities: CSCapabilities
    /// HCI_Version (and LL VersNr): 0x11 for Core 6.3.
    public let hciVersion: UInt8
    /// Company_Identifier of Read Local Version Information and LL_VERSION_IND: 0xFFFF, none
    /// assigned (this is a model, not a vendor's controller).
    public static var companyIdentifier: UInt16 { 0xFFFF }
    /// HCI_Subversion and LMP/LL SubVersNr of this controller model.
    public static var subversion: UInt16 { 0x0001 }
    public let address: UInt64
    public var connection: LinkConnection
    public var masks = EventMasks()
    /// LE features the host switched on with LE Set Host Feature (bit 47: CS host support).
    public internal(set) var hostFeatures: UInt64 = 0
    /// The form of LE CS Read Remote Supported Capabilities Complete the host gets: the Core 6.3
    /// v2 event (0x38) when it unmasked it, else the v1 event (0x2C), as a controller picks any
    /// versioned event by the mask (Vol 4 Part E §7.7.65; channel-sounding.md §1). Which capabilities
    /// command the host used does not matter: Bumble reads the local capabilities with the v2
    /// command and unmasks only the v1 event.
    var capabilitiesLayout: CapabilitiesLayout {
        masks.allows(leSubevent: LESubeventCode.csReadRemoteSupportedCapabilitiesCompleteV2) ? v2CapabilitiesLayout : .v1
    }
    /// The v2 form this controller writes: Zephyr/Nordic's 31 octets by default, or Bumble's 34.
    public var v2CapabilitiesLayout: CapabilitiesLayout = .v2

    var random: ControllerRandom
    var events: [[UInt8]] = []
    var pdus: [[UInt8]] = []

    // CS state of the connection.
    public internal(set) var remoteCapabilities: CSCapabilities?
    public internal(set) var remoteFAETable: FAETable?
    /// The DRBG both sides instantiated in CS security start; nil before it.
    public internal(set) var drbg: CSDRBG<Cipher>?
    public internal(set) var defaultSettings = DefaultSettings()
    public internal(set) var configurations = [CSConfiguration?](repeating: nil, count: 4)
    public internal(set) var procedureParameters = [ProcedureParameters?](repeating: nil, count: 4)
    public internal(set) var channelClassification = ChannelMap.allowed
    /// The counter of the last procedure since CS security start, kept across disable and enable.
    var lastProcedureCounter: UInt16?
    /// The connection's LL procedures, each with its own state and T_PRT wait (`LinkLayer/`).
    var llProcedures = LLProcedures()
    /// Why the connection was lost (`loseConnection(reason:)`), nil while it is up; `connect(_:)`
    /// brings up another.
    public internal(set) var connectionLoss: HCIStatus?
    /// Whether the connection exists.
    public var isConnected: Bool { connectionLoss == nil }
    /// The peer's LL_VERSION_IND, once the version exchange brought it.
    public var remoteVersion: LLVersionInd? { llProcedures.version.remote }
    var run: ProcedureRun?
    /// The steps of `run`'s procedures, drawn from the connection's DRBG; set and cleared with it.
    var planner: ProcedurePlanner<Cipher>?
    /// The leftover-bit policy both sides use (a project setting; see `LeftoverBitPolicy`).
    public var leftoverBitPolicy: LeftoverBitPolicy = .regeneratePerStep
    /// The controller clock (µs) as last told by `advance(to:)`; procedures start after it.
    public internal(set) var now: UInt64 = 0

    public init(capabilities: CSCapabilities, hciVersion: UInt8 = 0x11, address: UInt64, connection: LinkConnection, seed: UInt64,
                cipher: Cipher.Type) {
        localCapabilities = capabilities
        self.hciVersion = hciVersion
        self.address = address & 0xFFFF_FFFF_FFFF
        self.connection = connection
        random = ControllerRandom(seed: seed)
    }

    /// HCI event packets for the host (without the H4 indicator), oldest first; clears the queue.
    #if !hasFeature(Embedded)
    @_specialize(exported: true, where Cipher == AES128)
    #endif
    public mutating func takeEvents() -> [[UInt8]] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// LL control PDUs for the peer controller (opcode and CtrData), oldest first; clears the queue.
    #if !hasFeature(Embedded)
    @_specialize(exported: true, where Cipher == AES128)
    #endif
    public mutating func takePDUs() -> [[UInt8]] {
        defer { pdus.removeAll(keepingCapacity: true) }
        return pdus
    }

    /// Moves the controller clock forward (connection events pass with it). A procedure that has
    /// waited T_PRT for the peer by then loses the connection (`responseTimedOut()`).
    #if !hasFeature(Embedded)
    @_specialize(exported: true, where Cipher == AES128)
    #endif
    public mutating func advance(to time: UInt64) {
        guard time > now else { return }
        now = time
        connection.eventCounter = UInt16(truncatingIfNeeded: time / UInt64(connection.intervalMicroseconds))
        if isConnected && llProcedures.hasTimedOut(at: now) { responseTimedOut() }
    }

    /// Whether procedures are enabled on the connection.
    public var proceduresEnabled: Bool { run != nil }

    // MARK: Sending

    mutating func send(_ event: HCIPacket) { events.append(event.encode()) }

    /// Sends an LE Meta event if the host unmasked it.
    mutating func sendLEMeta(code: UInt8, body: [UInt8]) {
        guard masks.allows(leSubevent: code) else { return }
        send(HCIPacket(leSubevent: code, body: body))
    }

    mutating func complete(_ opcode: UInt16, _ returnParameters: [UInt8]) {
        send(CommandCompleteEvent(opcode: opcode, returnParameters: returnParameters).packet)
    }

    mutating func complete(_ opcode: UInt16, status: HCIStatus, handle: UInt16? = nil) {
        send(CommandCompleteEvent(opcode: opcode, status: status, connectionHandle: handle).packet)
    }

    mutating func commandStatus(_ opcode: UInt16, _ status: HCIStatus) {
        send(CommandStatusEvent(status: status, opcode: opcode).packet)
    }
}

/// The software controller: `CSController` with the table-driven `AES128`.
extension CSController where Cipher == AES128 {
    public init(capabilities: CSCapabilities, hciVersion: UInt8 = 0x11, address: UInt64, connection: LinkConnection, seed: UInt64) {
        self.init(capabilities: capabilities, hciVersion: hciVersion, address: address, connection: connection, seed: seed, cipher: AES128.self)
    }
}
