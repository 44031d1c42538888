import WireFormat

/// An HCI command's parameters as a value type with its opcode (Core 6.0 Vol 4 Part E §5.4.1),
/// so the controller model can turn a received command packet into a typed command and back.
/// The parameter codec comes from `HCIParameters`; this adds the packet, and what the type
/// says about itself as Bumble's command classes do: its name, how a controller answers it
/// (Command Complete with its return parameters, or Command Status, §4.4) and its return type.
public protocol HCICommand: HCIParameters {
    static var opcode: UInt16 { get }
    /// The spec's name of the command ("LE CS Create Config"), for messages.
    static var name: StaticString { get }
    /// Command Complete (the default) or Command Status.
    static var answer: HCICommandAnswer { get }
    /// What Command Complete returns (`StatusReturn`, Status alone, unless the command says
    /// otherwise; a Command Status command keeps the default: its answer is a Status too).
    associatedtype ReturnParameters: HCIParametersEncodable = StatusReturn
}

/// How a controller answers a command (Core 6.0 Vol 4 Part E §4.4, §7.7.14, §7.7.15).
public enum HCICommandAnswer: Sendable, Equatable {
    /// Command Complete, with the return parameters (Status first).
    case complete
    /// Command Status; the outcome follows in an event of its own.
    case status
}

extension HCICommand {
    public static var answer: HCICommandAnswer { .complete }

    /// The whole command packet.
    public var packet: HCIPacket { HCIPacket(opcode: Self.opcode, parameters: encode()) }

    /// Parses `packet`, checking that it is this command (`.unexpectedCode` otherwise).
    public static func decode(packet: HCIPacket) throws(DecodeError) -> Self { try decode(packet.parameters(ofCommand: opcode)) }
}

/// Return parameters that are `Status 1` alone (Core 6.0 Vol 4 Part E §7.7.14): most commands'.
public struct StatusReturn: HCIParameters {
    public var status: HCIStatus

    public init(status: HCIStatus = .success) { self.status = status }

    public var parameterCapacity: Int { 1 }
    public func encodeParameters(into w: inout ByteWriter) { w.u8(status.rawValue) }
    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> StatusReturn { StatusReturn(status: try r.status()) }
}
