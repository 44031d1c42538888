import WireFormat

// The general commands every host opens with (Core 6.0 Vol 4 Part E §7.3, §7.4, §7.8), as
// codecs so that each carries its name and answer like the CS commands (`ControllerSetupStep` sends
// them, the hosts name them in messages). All are answered with Command Complete.

/// Reset (0x0C03, §7.3.2): no parameters.
public struct Reset: HCICommand, HCIFieldWalk {
    public static let opcode = HCIOpcode.reset
    public static var name: StaticString { "Reset" }
    public static var blank: Self { Self() }

    public init() {}
    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {}
}

/// Set Event Mask (0x0C01, §7.3.1) and LE Set Event Mask (0x2001, §7.8.1): `Event_Mask 8`.
public struct EventMaskCommand<Kind: EventMaskKind>: HCICommand, HCIFieldWalk {
    public static var opcode: UInt16 { Kind.command.opcode }
    public static var name: StaticString { Kind.command.name }
    public static var blank: Self { Self(mask: 0) }

    /// Bit n unmasks the event (or LE subevent) of `EventMasks`' bit n.
    public var mask: UInt64

    public init(mask: UInt64) { self.mask = mask }
    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) { try c.integer(&mask, Kind.command.field, width: 8, endianness: .little) }
}

/// Which event mask a command sets: its opcode, name and field name.
public protocol EventMaskKind: Sendable {
    static var command: (opcode: UInt16, name: StaticString, field: StaticString) { get }
}

public enum EventMaskKinds {
    public enum Events: EventMaskKind {
        public static var command: (opcode: UInt16, name: StaticString, field: StaticString) { (HCIOpcode.setEventMask, "Set Event Mask", "Event_Mask") }
    }
    public enum LEEvents: EventMaskKind {
        public static var command: (opcode: UInt16, name: StaticString, field: StaticString) { (HCIOpcode.leSetEventMask, "LE Set Event Mask", "LE_Event_Mask") }
    }
}

public typealias SetEventMask = EventMaskCommand<EventMaskKinds.Events>
public typealias LESetEventMask = EventMaskCommand<EventMaskKinds.LEEvents>

/// LE Set Host Feature (0x2074, §7.8.115): `Bit_Number 1 | Bit_Value 1 (0–1)`.
public struct LESetHostFeature: HCICommand, HCIFieldWalk {
    public static let opcode = HCIOpcode.leSetHostFeature
    public static var name: StaticString { "LE Set Host Feature" }
    public static var blank: Self { Self(bit: 0, enabled: false) }

    public var bit: UInt8
    public var enabled: Bool

    public init(bit: UInt8, enabled: Bool) { (self.bit, self.enabled) = (bit, enabled) }
    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.u8(&bit, "Bit_Number")
        try c.flag(&enabled, "Bit_Value")
    }
}

/// A command without parameters that reads a controller value: LE Read Buffer Size [v1]
/// (0x2002, §7.8.2), the controller's ACL buffers for LE; Read BD_ADDR (0x1009, §7.4.6), its
/// public address.
public struct ControllerRead<Kind: ControllerReadKind>: HCICommand, HCIFieldWalk {
    public static var opcode: UInt16 { Kind.command.opcode }
    public static var name: StaticString { Kind.command.name }
    public static var blank: Self { Self() }

    public init() {}
    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {}
}

/// Which value a `ControllerRead` reads: the command's opcode and name.
public protocol ControllerReadKind: Sendable {
    static var command: (opcode: UInt16, name: StaticString) { get }
}

public enum ControllerReadKinds {
    public enum LEBufferSize: ControllerReadKind {
        public static var command: (opcode: UInt16, name: StaticString) { (HCIOpcode.leReadBufferSize, "LE Read Buffer Size") }
    }
    public enum BDAddr: ControllerReadKind {
        public static var command: (opcode: UInt16, name: StaticString) { (HCIOpcode.readBDAddr, "Read BD_ADDR") }
    }
}

public typealias LEReadBufferSize = ControllerRead<ControllerReadKinds.LEBufferSize>
public typealias ReadBDAddr = ControllerRead<ControllerReadKinds.BDAddr>

extension ControllerReadKinds {
    public enum LocalVersion: ControllerReadKind {
        public static var command: (opcode: UInt16, name: StaticString) { (HCIOpcode.readLocalVersionInformation, "Read Local Version Information") }
    }
    public enum SupportedCommands: ControllerReadKind {
        public static var command: (opcode: UInt16, name: StaticString) { (HCIOpcode.readLocalSupportedCommands, "Read Local Supported Commands") }
    }
    public enum LEFeatures: ControllerReadKind {
        public static var command: (opcode: UInt16, name: StaticString) { (HCIOpcode.leReadLocalSupportedFeatures, "LE Read Local Supported Features") }
    }
}

/// Read Local Version Information (0x1001, §7.4.1).
public typealias ReadLocalVersionInformation = ControllerRead<ControllerReadKinds.LocalVersion>
/// Read Local Supported Commands (0x1002, §7.4.2).
public typealias ReadLocalSupportedCommands = ControllerRead<ControllerReadKinds.SupportedCommands>
/// LE Read Local Supported Features (0x2003, §7.8.3).
public typealias LEReadLocalSupportedFeatures = ControllerRead<ControllerReadKinds.LEFeatures>
