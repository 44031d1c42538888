import BLEHost
import RadioWorld
import HCITransport
import ReflectorFirmware

/// The phone and the accessory joined in process: each host talks to its own controller in HCI
/// packets, the controllers exchange LL control PDUs over the emulated connection, the
/// reflector's host sends RAS notifications to the phone's host, and the procedures run step
/// by step over the two radios on one virtual clock. Nothing takes a shortcut around the bytes:
/// every hop is what a real device pair would exchange.
public struct LoopbackLink<InitiatorRadio: RadioPort, ReflectorRadio: RadioPort> {
    public var initiatorHost: InitiatorHost
    public var initiatorController: CSController<AES128>
    public var reflectorHost: ReflectorHost
    public var reflectorController: CSController<AES128>
    public var initiatorRadio: InitiatorRadio
    public var reflectorRadio: ReflectorRadio
    /// The virtual clock, µs.
    public private(set) var clock: UInt64 = 0
    /// The initiator's HCI traffic, when recording (btsnoop records on the virtual clock).
    public var capture: [BTSnoopRecord]?
    /// The reflector's HCI traffic, recorded like `capture` (for tools that pair both sides).
    public var reflectorCapture: [BTSnoopRecord]?
    /// LL control PDUs exchanged (both directions), for tests and tools.
    public private(set) var llPDUCount = 0
    /// Procedures in which the two controllers' plans disagreed (never expected: a bug).
    public private(set) var planMismatches = 0

    public init(initiatorHost: InitiatorHost, initiatorController: CSController<AES128>, reflectorHost: ReflectorHost,
                reflectorController: CSController<AES128>, initiatorRadio: InitiatorRadio, reflectorRadio: ReflectorRadio, recordHCI: Bool = false) {
        self.initiatorHost = initiatorHost
        self.initiatorController = initiatorController
        self.reflectorHost = reflectorHost
        self.reflectorController = reflectorController
        self.initiatorRadio = initiatorRadio
        self.reflectorRadio = reflectorRadio
        capture = recordHCI ? [] : nil
        reflectorCapture = capture
    }

    /// Moves commands, events, LL PDUs and RAS notifications until nothing is left to move.
    /// Returns what the phone's host reported.
    public mutating func settle() -> [InitiatorHost.Output] {
        var outputs: [InitiatorHost.Output] = []
        var moved = true
        var rounds = 0
        while moved && rounds < 10_000 {
            moved = false
            rounds += 1
            if let command = initiatorHost.nextCommand() {
                record(.command, command, .hostToController)
                initiatorController.handleCommand(command)
                moved = true
            }
            if let command = reflectorHost.nextCommand() {
                record(.command, command, .hostToController, reflector: true)
                reflectorController.handleCommand(command)
                moved = true
            }
            for event in initiatorController.takeEvents() {
                record(.event, event, .controllerToHost)
                outputs += initiatorHost.handleEvent(event)
                moved = true
            }
            for event in reflectorController.takeEvents() {
                record(.event, event, .controllerToHost, reflector: true)
                for output in reflectorHost.handleEvent(event) {
                    if case .reflector(.rangingData(_, let segments)) = output {
                        for segment in segments { outputs += initiatorHost.receiveRangingData(segment) }
                    }
                }
                moved = true
            }
            for pdu in initiatorController.takePDUs() {
                reflectorController.receiveFromPeer(pdu)
                llPDUCount += 1
                moved = true
            }
            for pdu in reflectorController.takePDUs() {
                initiatorController.receiveFromPeer(pdu)
                llPDUCount += 1
                moved = true
            }
        }
        return outputs
    }

    /// Runs the next procedure, if one is due: both controllers plan it, every step runs over
    /// the radios in the order the air imposes (initiator sends, reflector answers, initiator
    /// measures), and the results travel to the hosts. Returns nil when no procedure is due. If
    /// the link drops on the way to its start, the hosts hear of it instead (`linkLoss`).
    public mutating func runProcedure() -> [InitiatorHost.Output]? {
        guard let start = initiatorController.nextProcedureStart, reflectorController.nextProcedureStart == start else { return nil }
        advance(to: start)
        guard linkLoss == nil else { return settle() }
        let result = ProcedureExchange.run(initiator: &initiatorController, reflector: &reflectorController,
                                           initiatorRadio: &initiatorRadio, reflectorRadio: &reflectorRadio)
        planMismatches += result.agreed ? 0 : 1
        clock = max(clock, result.end)
        return settle()
    }

    /// Stops procedures from the phone's side and lets the terminate procedure run.
    public mutating func stop() -> [InitiatorHost.Output] {
        initiatorHost.stop()
        return settle()
    }

    /// Moves the virtual clock. A controller whose procedure went unanswered for its response
    /// timeout drops the link; the other then hears nothing more and its supervision timer
    /// expires (Connection Timeout, 0x08). `settle()` delivers the hosts' Disconnection Complete.
    public mutating func advance(to time: UInt64) {
        clock = max(clock, time)
        initiatorController.advance(to: clock)
        reflectorController.advance(to: clock)
        if !initiatorController.isConnected { reflectorController.loseConnection(reason: .connectionTimeout) }
        if !reflectorController.isConnected { initiatorController.loseConnection(reason: .connectionTimeout) }
    }

    /// Why the link went down, as the phone's controller saw it; nil while it is up.
    public var linkLoss: HCIStatus? { initiatorController.connectionLoss ?? reflectorController.connectionLoss }

    private mutating func record(_ indicator: HCIPacketIndicator, _ bytes: [UInt8], _ direction: BTSnoopDirection, reflector: Bool = false) {
        guard (reflector ? reflectorCapture : capture) != nil else { return }
        let r = BTSnoopRecord(packet: HCIPacket(indicator: indicator, bytes: bytes), direction: direction,
                              timestamp: BTSnoopTimestamp(virtualMicroseconds: clock))
        if reflector { reflectorCapture!.append(r) } else { capture!.append(r) }
    }
}
