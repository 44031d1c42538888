/// Sends HCI commands one at a time, as a host does when the controller grants one command
/// credit, and pairs each Command Complete or Command Status with the command it answers
/// (Core 6.0 Vol 4 Part E §4.4 flow control).
public struct CommandPipeline: Sendable {
    public init() {}

    private var queue: [HCIPacket] = []
    /// The command sent and not yet answered.
    public private(set) var outstanding: HCIPacket?

    public var isIdle: Bool { queue.isEmpty && outstanding == nil }

    public mutating func enqueue<C: HCICommand>(_ command: C) { queue.append(command.packet) }
    public mutating func enqueue(_ packet: HCIPacket) { queue.append(packet) }

    /// The next command to send, if the previous one was answered.
    public mutating func next() -> HCIPacket? {
        guard outstanding == nil, !queue.isEmpty else { return nil }
        outstanding = queue.removeFirst()
        return outstanding
    }

    /// What a Command Complete or Command Status event says about the outstanding command;
    /// nil for other events, or for an answer to another opcode (ignored, as hosts do).
    public mutating func answer(_ event: HCIPacket) -> CommandAnswer? {
        let answer: CommandAnswer
        switch event.eventCode {
        case CommandCompleteEvent.eventCode:
            guard let cc = try? CommandCompleteEvent.decode(packet: event) else { return nil }
            answer = CommandAnswer(opcode: cc.opcode, status: cc.returnParameters.first.flatMap(HCIStatus.init(rawValue:)) ?? .unspecifiedError,
                                   returnParameters: cc.returnParameters, isStatusOnly: false)
        case CommandStatusEvent.eventCode:
            guard let cs = try? CommandStatusEvent.decode(packet: event) else { return nil }
            answer = CommandAnswer(opcode: cs.opcode, status: cs.status, returnParameters: [], isStatusOnly: true)
        default:
            return nil
        }
        guard let sent = outstanding, sent.opcode == answer.opcode else { return nil }
        outstanding = nil
        return answer
    }

    public mutating func clear() {
        queue.removeAll()
        outstanding = nil
    }
}

/// A controller's answer to one command.
public struct CommandAnswer: Sendable, Equatable {
    public var opcode: UInt16
    public var status: HCIStatus
    /// Command Complete's return parameters (status first); empty for Command Status.
    public var returnParameters: [UInt8]
    public var isStatusOnly: Bool
}
