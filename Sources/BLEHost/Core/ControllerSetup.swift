import ReflectorFirmware

/// The set-up every host of this project gives its controller first, in either role (Core 6.0
/// Vol 4 Part E §7.3.2 Reset, §7.4.2 Read Local Supported Commands, §7.3.1 Set Event Mask,
/// §7.8.1 LE Set Event Mask, §7.8.2 LE Read Buffer Size, §7.4.6 Read BD_ADDR, §7.8.3 LE Read
/// Local Supported Features, §7.8.115 LE Set Host Feature), one named step at a time. What the
/// controller answers lands in `HostCore.controller`; from Read Local Supported Commands on,
/// the scheduler sends only what the controller lists. Channel Sounding host support is turned
/// on only when the controller has CS (LE feature bit 46) and lists LE Set Host Feature;
/// otherwise set-up still finishes, and `channelSoundingUnavailable` says why: the host can
/// advertise, connect, pair and serve GATT on a controller without CS.
public struct ControllerSetup: Sendable {
    /// One step of the set-up, of the one order every host takes (`ControllerSetupStep`).
    public typealias Step = ControllerSetupStep

    public enum Output: Sendable, Equatable {
        /// Set-up is through; the host's own steps may start.
        case ready
        /// A required step was refused, or the controller does not list it (Unknown HCI Command).
        case refused(Step, HCIStatus)
    }

    /// The step whose answer is awaited, if any.
    public private(set) var awaiting: Step?
    private var sequence = ControllerSetupSequence.host
    public private(set) var isDone = false
    /// Why Channel Sounding cannot run on this controller, once set-up has found out.
    public private(set) var channelSoundingUnavailable: String?

    public init() {}

    /// Queues the next step, once the previous one was answered.
    public mutating func advance(_ core: inout HostCore) -> [Output] {
        while awaiting == nil, let step = sequence.next() {
            let facts = Step.Facts(supportedCommands: core.controller.supportedCommands, leFeatures: core.controller.leFeatures,
                                   readsFeatures: sequence.readsFeatures)
            switch step.decide(facts) {
            case .skip(let why):
                if step == .enableCSHostSupport { channelSoundingUnavailable = "\(why)" }
            case .send(let packet):
                guard core.scheduler.enqueue(packet) else {
                    if Self.isRequired(step) { return fail(step, .unknownCommand) }
                    if step == .enableCSHostSupport { channelSoundingUnavailable = "the board does not list LE Set Host Feature among its supported commands" }
                    continue
                }
                awaiting = step
            }
        }
        guard awaiting == nil, sequence.isFinished, !isDone else { return [] }
        isDone = true
        return [.ready]
    }

    /// The controller's answer to a step.
    public mutating func handle(_ event: HostEvent, _ core: inout HostCore) -> [Output] {
        guard case .commandAnswered(let answer) = event, let step = awaiting, step.isAnswered(by: answer.opcode) else { return [] }
        awaiting = nil
        if answer.status != .success {
            if Self.isRequired(step) { return fail(step, answer.status) }
            if step == .enableCSHostSupport || step == .readFeatures {
                let what = step == .enableCSHostSupport ? "\(step.name) (Channel Sounding host support)" : "\(step.name)"
                channelSoundingUnavailable = "the board refused \(what): \(answer.status.described)"
                if step == .readFeatures { sequence.stop() }
            }
        }
        return advance(&core)
    }

    /// Starts over (the controller was reset, or the host restarts).
    public mutating func restart() {
        self = ControllerSetup()
    }

    /// A host cannot go on without it (the rest have defaults: the LE minimum buffer, no
    /// address, no CS).
    static func isRequired(_ step: Step) -> Bool { step == .reset || step == .setEventMask || step == .setLEEventMask }

    private mutating func fail(_ step: Step, _ status: HCIStatus) -> [Output] {
        sequence.stop()
        awaiting = nil
        return [.refused(step, status)]
    }
}
