import ReflectorFirmware

/// What every host of this project is to the loop that runs it (a port loop on a real board,
/// a served board's air, a test): HCI packets in, HCI packets out, one clock in seconds.
/// `AccessoryHost`, `PhoneHost` and the tool's range session are such hosts.
public protocol BoardHost {
    associatedtype Output
    /// The next command for the controller, if one may go now.
    mutating func nextCommand() -> HCIPacket?
    /// ACL packets the controller has buffers for now.
    mutating func nextACL() -> [HCIPacket]
    mutating func handleEvent(_ packet: HCIPacket, now: Double) -> [Output]
    mutating func handleACL(_ packet: HCIPacket, now: Double) -> [Output]
    /// Time passes (timers: SMP's 30 s, RAS's ACK, retries).
    mutating func tick(now: Double) -> [Output]
    /// The command sent and not yet answered: a board silent on it has gone away.
    var unansweredOpcode: UInt16? { get }
    /// Starts the controller over after `fault` (Reset and the whole set-up again).
    mutating func restartController(_ fault: ControllerFault) -> [Output]
}

extension BoardHost {
    /// One packet from the controller, by its indicator (events and ACL data; others are dropped).
    public mutating func receive(_ packet: HCIPacket, now: Double) -> [Output] {
        switch packet.indicator {
        case .event: handleEvent(packet, now: now)
        case .aclData: handleACL(packet, now: now)
        default: []
        }
    }
}

extension AccessoryHost: BoardHost {}

extension PhoneHost: BoardHost {
    public var unansweredOpcode: UInt16? { host.unansweredOpcode }
}
