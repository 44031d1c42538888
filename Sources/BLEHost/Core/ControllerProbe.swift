import ReflectorFirmware

/// Asks a controller what an iPhone would need to know before ranging with it: the probe's steps
/// of the one set-up order (`ControllerSetupSequence.probe`: reset, version, supported commands,
/// LE features, and the CS capabilities, the Core 6.3 v2 form when the controller lists it).
/// A pure state machine over HCI bytes, so the check command can run it over a serial port and
/// tests over a pty or in process.
public struct ControllerProbe: Sendable {
    /// What the controller said about itself.
    public struct Findings: Sendable, Equatable {
        public var hciVersion: UInt8?
        public var hciSubversion: UInt16?
        public var lmpVersion: UInt8?
        public var companyIdentifier: UInt16?
        public var supportedCommands: [UInt8]?
        public var leFeatures: UInt64?
        public var capabilities: CSCapabilities?
        /// Which capabilities command answered (v2 = Core 6.3 form).
        public var capabilitiesLayout: CapabilitiesLayout?

        /// What the set-up steps' guards look at.
        var facts: ControllerSetupStep.Facts {
            ControllerSetupStep.Facts(supportedCommands: supportedCommands, leFeatures: leFeatures, readsFeatures: true)
        }

        /// LE feature bit 46: Channel Sounding.
        public var supportsChannelSounding: Bool { facts.supportsChannelSounding }
    }

    public enum Outcome: Sendable, Equatable {
        case done(Findings)
        /// The controller refused a command the probe needs, or answered garbage.
        case failed(String)
    }

    public private(set) var findings = Findings()
    private var pipeline = CommandScheduler()
    private var sequence = ControllerSetupSequence.probe
    public private(set) var outcome: Outcome?

    public init() {}

    /// The next command to send (opcode, length, parameters), once the previous one is answered.
    public mutating func nextCommand() -> [UInt8]? {
        guard outcome == nil else { return nil }
        if pipeline.isIdle { enqueue() }
        return pipeline.next()?.encode()
    }

    /// The opcode of the command awaiting an answer (for messages about silence).
    public var waitingFor: UInt16? { pipeline.outstanding?.opcode }

    /// Queues the next step its guard lets through; the probe is done when none is left.
    private mutating func enqueue() {
        while let step = sequence.next() {
            // A passed-by step is one the controller cannot answer (no CS capabilities to read).
            guard case .send(let packet) = step.decide(findings.facts) else { continue }
            _ = pipeline.enqueue(packet)
            return
        }
        outcome = .done(findings)
    }

    /// Handles one event packet from the controller (no H4 indicator).
    public mutating func handleEvent(_ bytes: some Collection<UInt8>) {
        guard let event = try? HCIPacket(event: bytes), let answer = pipeline.answer(event) else { return }
        let r = answer.returnParameters
        guard answer.status == .success, !answer.isStatusOnly else {
            // A controller without CS answers the capabilities command with Unknown HCI Command.
            if answer.opcode == LECSReadLocalSupportedCapabilities.opcode || answer.opcode == LECSReadLocalSupportedCapabilitiesV2.opcode {
                outcome = .done(findings)
            } else {
                outcome = .failed("the controller answered \(HCICommandNames.name(answer.opcode)) with \(answer.status)")
            }
            return
        }
        switch answer.opcode {
        case HCIOpcode.readLocalVersionInformation:
            // Status, HCI_Version, HCI_Subversion 2, LMP_Version, Company_Identifier 2, LMP_Subversion 2.
            var fields = ByteReader(r.dropFirst())
            guard r.count >= 9, let version = try? fields.u8("HCI_Version"), let subversion = try? fields.u16("HCI_Subversion"),
                  let lmp = try? fields.u8("LMP_Version"), let company = try? fields.u16("Company_Identifier")
            else { return fail(ReadLocalVersionInformation.name) }
            findings.hciVersion = version
            findings.hciSubversion = subversion
            findings.lmpVersion = lmp
            findings.companyIdentifier = company
        case HCIOpcode.readLocalSupportedCommands:
            guard r.count >= 65 else { return fail(ReadLocalSupportedCommands.name) }
            findings.supportedCommands = Array(r[1..<65])
        case HCIOpcode.leReadLocalSupportedFeatures:
            var fields = ByteReader(r.dropFirst())
            guard let features = try? fields.u64("LE_Features") else { return fail(LEReadLocalSupportedFeatures.name) }
            findings.leFeatures = features
        case LECSReadLocalSupportedCapabilities.opcode, LECSReadLocalSupportedCapabilitiesV2.opcode:
            let v2 = answer.opcode == LECSReadLocalSupportedCapabilitiesV2.opcode
            guard let ret = try? LECSLocalCapabilitiesReturn.decode(r, v2: v2) else { return fail(LECSReadLocalSupportedCapabilities.name) }
            findings.capabilities = ret.capabilities
            findings.capabilitiesLayout = ret.layout
        default:
            break
        }
    }

    private mutating func fail(_ what: StaticString) { outcome = .failed("the answer to \(what) is malformed") }
}
