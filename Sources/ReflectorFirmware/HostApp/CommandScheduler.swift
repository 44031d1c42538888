/// The one queue of HCI commands a host keeps for its controller (Core 6.0 Vol 4 Part E §4.4
/// flow control), as Zephyr's `cmd_tx_queue` with `bt_hci_cmd_send_sync` and Bumble's
/// `command_semaphore` with `pending_command` are: one command outstanding at a time, sent only
/// while the controller grants a credit (Num_HCI_Command_Packets of its last Command Complete
/// or Status, a Command Complete for opcode 0x0000 granting credits alone), each answer paired
/// with its command by opcode. An urgent lane goes first (key replies the controller is timing).
///
/// Once the controller's Supported_Commands are known (Read Local Supported Commands), a command
/// it does not list is not queued: `enqueue` says so and the caller decides what that means,
/// so a host never sends what a board cannot take. Commands without a bit in the table
/// (Read Local Supported Commands itself) always go.
public struct CommandScheduler: Sendable {
    public init() {}

    private var queue: [HCIPacket] = []
    private var urgent: [HCIPacket] = []
    /// The command sent and not yet answered.
    public private(set) var outstanding: HCIPacket?
    /// Commands the controller accepts now (its last Num_HCI_Command_Packets); one until told.
    public private(set) var credits: UInt8 = 1
    /// The controller's Supported_Commands (64 octets), once known.
    public var supportedCommands: [UInt8]?

    public var isIdle: Bool { queue.isEmpty && urgent.isEmpty && outstanding == nil }

    /// Whether the controller lists `opcode` (true until its Supported_Commands are known, and
    /// for commands without a bit).
    public func lists(_ opcode: UInt16) -> Bool {
        guard let bitmap = supportedCommands, let p = SupportedCommands.position(of: opcode) else { return true }
        return Int(p.octet) < bitmap.count && bitmap[Int(p.octet)] & (1 << p.bit) != 0
    }

    /// Queues `packet` (`urgent`: before every other queued command); false, and not queued,
    /// when the controller does not list it.
    @discardableResult
    public mutating func enqueue(_ packet: HCIPacket, urgent isUrgent: Bool = false) -> Bool {
        guard let opcode = packet.opcode, lists(opcode) else { return false }
        if isUrgent { urgent.append(packet) } else { queue.append(packet) }
        return true
    }

    @discardableResult
    public mutating func enqueue<C: HCICommand>(_ command: C, urgent isUrgent: Bool = false) -> Bool {
        enqueue(command.packet, urgent: isUrgent)
    }

    /// The next command to send, if the previous one was answered and the controller has a credit.
    public mutating func next() -> HCIPacket? {
        guard outstanding == nil, credits > 0 else { return nil }
        if !urgent.isEmpty { outstanding = urgent.removeFirst() }
        else if !queue.isEmpty { outstanding = queue.removeFirst() }
        return outstanding
    }

    /// What a Command Complete or Command Status event says about the outstanding command;
    /// nil for other events, or for an answer to another opcode (ignored, as hosts do; its
    /// credits still count).
    public mutating func answer(_ event: HCIPacket) -> CommandAnswer? {
        let answer: CommandAnswer
        switch event.eventCode {
        case CommandCompleteEvent.eventCode:
            guard let cc = try? CommandCompleteEvent.decode(packet: event) else { return nil }
            credits = cc.numHCIPackets
            answer = CommandAnswer(opcode: cc.opcode, status: cc.returnParameters.first.flatMap(HCIStatus.init(rawValue:)) ?? .unspecifiedError,
                                   returnParameters: cc.returnParameters, isStatusOnly: false)
        case CommandStatusEvent.eventCode:
            guard let cs = try? CommandStatusEvent.decode(packet: event) else { return nil }
            credits = cs.numHCIPackets
            answer = CommandAnswer(opcode: cs.opcode, status: cs.status, returnParameters: [], isStatusOnly: true)
        default:
            return nil
        }
        guard let sent = outstanding, sent.opcode == answer.opcode else { return nil }
        outstanding = nil
        return answer
    }

    /// Forgets every queued and outstanding command (a reset, a failure); the credit comes back.
    public mutating func clear() {
        queue.removeAll()
        urgent.removeAll()
        outstanding = nil
        credits = 1
    }
}

/// A controller's answer to one command.
public struct CommandAnswer: Sendable, Equatable {
    public var opcode: UInt16
    public var status: HCIStatus
    /// Command Complete's return parameters (status first); empty for Command Status.
    public var returnParameters: [UInt8]
    public var isStatusOnly: Bool

    public init(opcode: UInt16, status: HCIStatus, returnParameters: [UInt8], isStatusOnly: Bool) {
        self.opcode = opcode
        self.status = status
        self.returnParameters = returnParameters
        self.isStatusOnly = isStatusOnly
    }
}
