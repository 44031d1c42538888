import WireFormat

/// A controller's set-up, in the one order every host of this project takes it, each step a
/// command codec with its name and a capability guard (as Bumble's `Host.reset()` is one
/// sequence guarded by `supports_command`): Reset (Core 6.0 Vol 4 Part E §7.3.2), Read Local
/// Version Information (§7.4.1), Read Local Supported Commands (§7.4.2), Set Event Mask
/// (§7.3.1), LE Set Event Mask (§7.8.1), LE Read Buffer Size (§7.8.2), Read BD_ADDR (§7.4.6),
/// LE Read Local Supported Features (§7.8.3), LE Set Host Feature for Channel Sounding host
/// support (§7.8.115), LE CS Read Local Supported Capabilities (§7.8.130, or its Core 6.3 v2
/// form). A host takes the steps it needs of these, in this order (`ControllerSetupSequence`):
///
/// - BLEHost's `ControllerSetup`, both hosts on any controller: `ControllerSetupSequence.host`,
///   all but the version and capabilities reads (the CS initiator reads the capabilities itself).
/// - BLEHost's `ControllerProbe` (`check`, and `range`/`accessory` before their host starts):
///   `.probe`, the reads only, so that it sets no mask and no host feature on a board it only asks.
/// - The firmware's `ReflectorHost` (the loopback, the reference board): `.reflector`, Reset, the
///   masks and CS host support; its controller is this project's own, whose commands and
///   features it knows, and it sends no ACL data of its own.
public enum ControllerSetupStep: Int, CaseIterable, Sendable {
    case reset, readVersion, readSupportedCommands, setEventMask, setLEEventMask, readBufferSize, readAddress, readFeatures, enableCSHostSupport, readCSCapabilities

    /// The command's name, as its codec gives it ("LE Set Event Mask"); the capabilities read
    /// is named by its v1 form.
    public var name: StaticString {
        switch self {
        case .reset: Reset.name
        case .readVersion: ReadLocalVersionInformation.name
        case .readSupportedCommands: ReadLocalSupportedCommands.name
        case .setEventMask: SetEventMask.name
        case .setLEEventMask: LESetEventMask.name
        case .readBufferSize: LEReadBufferSize.name
        case .readAddress: ReadBDAddr.name
        case .readFeatures: LEReadLocalSupportedFeatures.name
        case .enableCSHostSupport: LESetHostFeature.name
        case .readCSCapabilities: LECSReadLocalSupportedCapabilities.name
        }
    }

    /// The step's command; for the capabilities read, its v1 form.
    public var opcode: UInt16 {
        switch self {
        case .reset: Reset.opcode
        case .readVersion: ReadLocalVersionInformation.opcode
        case .readSupportedCommands: ReadLocalSupportedCommands.opcode
        case .setEventMask: SetEventMask.opcode
        case .setLEEventMask: LESetEventMask.opcode
        case .readBufferSize: LEReadBufferSize.opcode
        case .readAddress: ReadBDAddr.opcode
        case .readFeatures: LEReadLocalSupportedFeatures.opcode
        case .enableCSHostSupport: LESetHostFeature.opcode
        case .readCSCapabilities: LECSReadLocalSupportedCapabilities.opcode
        }
    }

    /// Whether `opcode` answers this step (either form of the capabilities read).
    public func isAnswered(by opcode: UInt16) -> Bool {
        opcode == self.opcode || (self == .readCSCapabilities && opcode == LECSReadLocalSupportedCapabilitiesV2.opcode)
    }

    /// The default event mask plus the LE Meta event.
    public static var eventMask: UInt64 { EventMasks.defaultEvents | EventMasks.bit(forEvent: HCIEventCode.leMeta) }

    /// The default LE events plus every CS event (0x2C...0x33) and the v2 capabilities event (0x38).
    public static var leEventMask: UInt64 {
        EventMasks.defaultLEEvents | EventMasks.channelSoundingLEEvents
            | EventMasks.bit(forLESubevent: LESubeventCode.csReadRemoteSupportedCapabilitiesCompleteV2)
    }

    /// LE feature bit 47: Channel Sounding (Host Support).
    public static let channelSoundingHostSupportBit: UInt8 = 47
    /// LE feature bit 46: Channel Sounding.
    public static let channelSoundingFeatureBit: UInt64 = 46

    /// What the controller has said so far that a guard looks at.
    public struct Facts: Sendable, Equatable {
        /// Supported_Commands, once read.
        public var supportedCommands: [UInt8]?
        /// LE_Features, once read.
        public var leFeatures: UInt64?
        /// Whether the sequence reads the LE features (a host that does not cannot know).
        public var readsFeatures: Bool

        public init(supportedCommands: [UInt8]? = nil, leFeatures: UInt64? = nil, readsFeatures: Bool) {
            self.supportedCommands = supportedCommands
            self.leFeatures = leFeatures
            self.readsFeatures = readsFeatures
        }

        /// Whether the controller lists a command (octet.bit of Supported_Commands).
        public func lists(octet: Int, bit: Int) -> Bool {
            guard let c = supportedCommands, octet < c.count else { return false }
            return c[octet] & (1 << UInt8(bit)) != 0
        }

        /// LE feature bit 46: Channel Sounding.
        public var supportsChannelSounding: Bool { (leFeatures ?? 0) & (1 << ControllerSetupStep.channelSoundingFeatureBit) != 0 }
    }

    /// What a step's guard decides.
    public enum Decision: Sendable {
        case send(HCIPacket)
        /// Not sent, and why (for a host to say).
        case skip(why: StaticString)
    }

    /// The step's command, or why its guard passes it by: CS host support only where the
    /// features were read and have bit 46 (or were never asked for); the capabilities in their
    /// Core 6.3 v2 form where listed (octet 49 bit 2), else v1 where listed (octet 20 bit 5) or
    /// the controller has CS, else not at all.
    public func decide(_ facts: Facts) -> Decision {
        switch self {
        case .reset: return .send(Reset().packet)
        case .readVersion: return .send(ReadLocalVersionInformation().packet)
        case .readSupportedCommands: return .send(ReadLocalSupportedCommands().packet)
        case .setEventMask: return .send(SetEventMask(mask: Self.eventMask).packet)
        case .setLEEventMask: return .send(LESetEventMask(mask: Self.leEventMask).packet)
        case .readBufferSize: return .send(LEReadBufferSize().packet)
        case .readAddress: return .send(ReadBDAddr().packet)
        case .readFeatures: return .send(LEReadLocalSupportedFeatures().packet)
        case .enableCSHostSupport:
            if facts.readsFeatures {
                guard facts.leFeatures != nil else { return .skip(why: "the board did not report its LE features") }
                guard facts.supportsChannelSounding else { return .skip(why: "the board does not support Channel Sounding (LE feature bit 46 is clear)") }
            }
            return .send(LESetHostFeature(bit: Self.channelSoundingHostSupportBit, enabled: true).packet)
        case .readCSCapabilities:
            if facts.lists(octet: 49, bit: 2) { return .send(LECSReadLocalSupportedCapabilitiesV2().packet) }
            if facts.lists(octet: 20, bit: 5) || facts.supportsChannelSounding { return .send(LECSReadLocalSupportedCapabilities().packet) }
            return .skip(why: "the board lists no CS capabilities command and has no Channel Sounding")
        }
    }
}

/// The steps one host takes of `ControllerSetupStep`'s order, one at a time.
public struct ControllerSetupSequence: Sendable {
    public let steps: [ControllerSetupStep]
    private var index = 0

    /// `steps` in `ControllerSetupStep`'s order.
    public init(_ steps: [ControllerSetupStep]) { self.steps = steps }

    /// Both hosts' set-up on any controller (BLEHost's `ControllerSetup`).
    public static var host: Self {
        Self([.reset, .readSupportedCommands, .setEventMask, .setLEEventMask, .readBufferSize, .readAddress, .readFeatures, .enableCSHostSupport])
    }
    /// What the probe asks (BLEHost's `ControllerProbe`).
    public static var probe: Self { Self([.reset, .readVersion, .readSupportedCommands, .readFeatures, .readCSCapabilities]) }
    /// The firmware reflector's host (`ReflectorHost`).
    public static var reflector: Self { Self([.reset, .setEventMask, .setLEEventMask, .enableCSHostSupport]) }

    /// Whether every step was taken or passed by.
    public var isFinished: Bool { index >= steps.count }
    /// Whether the sequence reads the LE features, for `ControllerSetupStep.Facts`.
    public var readsFeatures: Bool { steps.contains(.readFeatures) }

    /// The next step, or nil when the sequence is through.
    public mutating func next() -> ControllerSetupStep? {
        guard index < steps.count else { return nil }
        defer { index += 1 }
        return steps[index]
    }

    /// Takes no more steps.
    public mutating func stop() { index = steps.count }
}
