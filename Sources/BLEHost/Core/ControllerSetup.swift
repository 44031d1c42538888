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
    public enum Step: Int, CaseIterable, Sendable {
        case reset, readSupportedCommands, setEventMask, setLEEventMask, readBufferSize, readAddress, readFeatures, enableCSHostSupport

        public var name: String {
            switch self {
            case .reset: "Reset"
            case .readSupportedCommands: "Read Local Supported Commands"
            case .setEventMask: "Set Event Mask"
            case .setLEEventMask: "LE Set Event Mask"
            case .readBufferSize: "LE Read Buffer Size"
            case .readAddress: "Read BD_ADDR"
            case .readFeatures: "LE Read Local Supported Features"
            case .enableCSHostSupport: "LE Set Host Feature (Channel Sounding host support)"
            }
        }

        var packet: HCIPacket {
            switch self {
            case .reset: CSHostSetup.reset
            case .readSupportedCommands: HCIPacket(opcode: HCIOpcode.readLocalSupportedCommands, parameters: [])
            case .setEventMask: CSHostSetup.setEventMask
            case .setLEEventMask: CSHostSetup.leSetEventMask
            case .readBufferSize: HCIPacket(opcode: HCIOpcode.leReadBufferSize, parameters: [])
            case .readAddress: HCIPacket(opcode: HCIOpcode.readBDAddr, parameters: [])
            case .readFeatures: HCIPacket(opcode: HCIOpcode.leReadLocalSupportedFeatures, parameters: [])
            case .enableCSHostSupport: CSHostSetup.setCSHostSupport
            }
        }

        public var opcode: UInt16 { packet.opcode ?? 0 }

        /// A host cannot go on without it (the rest have defaults: the LE minimum buffer, no
        /// address, no CS).
        var isRequired: Bool { self == .reset || self == .setEventMask || self == .setLEEventMask }
    }

    public enum Output: Sendable, Equatable {
        /// Set-up is through; the host's own steps may start.
        case ready
        /// A required step was refused, or the controller does not list it (Unknown HCI Command).
        case refused(Step, HCIStatus)
    }

    /// The step whose answer is awaited, if any.
    public private(set) var awaiting: Step?
    private var nextStep: Step? = .reset
    public private(set) var isDone = false
    /// Why Channel Sounding cannot run on this controller, once set-up has found out.
    public private(set) var channelSoundingUnavailable: String?

    public init() {}

    /// Queues the next step, once the previous one was answered.
    public mutating func advance(_ core: inout HostCore) -> [Output] {
        while awaiting == nil, let step = nextStep {
            nextStep = Step(rawValue: step.rawValue + 1)
            if step == .enableCSHostSupport, !core.controller.supportsChannelSounding {
                channelSoundingUnavailable = core.controller.leFeatures == nil
                    ? "the board did not report its LE features" : "the board does not support Channel Sounding (LE feature bit 46 is clear)"
                continue
            }
            guard core.scheduler.enqueue(step.packet) else {
                if step.isRequired { return fail(step, .unknownCommand) }
                if step == .enableCSHostSupport { channelSoundingUnavailable = "the board does not list LE Set Host Feature among its supported commands" }
                continue
            }
            awaiting = step
        }
        guard awaiting == nil, nextStep == nil, !isDone else { return [] }
        isDone = true
        return [.ready]
    }

    /// The controller's answer to a step.
    public mutating func handle(_ event: HostEvent, _ core: inout HostCore) -> [Output] {
        guard case .commandAnswered(let answer) = event, let step = awaiting, answer.opcode == step.opcode else { return [] }
        awaiting = nil
        if answer.status != .success {
            if step.isRequired { return fail(step, answer.status) }
            if step == .enableCSHostSupport || step == .readFeatures {
                channelSoundingUnavailable = "the board refused \(step.name): \(answer.status) (0x\(String(answer.status.rawValue, radix: 16)))"
                if step == .readFeatures { nextStep = nil }
            }
        }
        return advance(&core)
    }

    /// Starts over (the controller was reset, or the host restarts).
    public mutating func restart() {
        self = ControllerSetup()
    }

    private mutating func fail(_ step: Step, _ status: HCIStatus) -> [Output] {
        nextStep = nil
        awaiting = nil
        return [.refused(step, status)]
    }
}
