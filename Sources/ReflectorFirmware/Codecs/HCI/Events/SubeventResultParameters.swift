import WireFormat

/// The parameters of the two subevent result events, LE CS Subevent Result and LE CS Subevent
/// Result Continue (Core 6.0 Vol 4 Part E §7.7.65.44–45): LE Meta subevents that end with a
/// `SubeventStepsReport`, whose fields read and write as the event's own, and that decode with
/// the reporting device's role (which decides how each step's data reads), so they decode
/// through this protocol rather than `LEMetaSubevent`.
public protocol SubeventResultParameters: LEMetaSubeventEncodable {
    /// Octets before the statuses: 15 for the result, 8 for the continuation (counting the
    /// five status octets, as the spec's header does).
    static var headerLength: Int { get }
    var stepsReport: SubeventStepsReport { get set }
    /// Reads the parameters after the subevent code; `decode` then requires that nothing is left.
    static func decodeParameters(_ r: inout ByteReader, role: CSRole, sequencePCT: Bool) throws(DecodeError) -> Self
}

extension SubeventResultParameters {
    /// Parses the parameters after the subevent code. `role` is the role of the reporting
    /// device; `sequencePCT` whether mode-1/3 steps carry PCT1/PCT2.
    public static func decode(_ parameters: some Collection<UInt8>, role: CSRole, sequencePCT: Bool = false) throws(DecodeError) -> Self {
        var r = ByteReader(parameters)
        let event = try decodeParameters(&r, role: role, sequencePCT: sequencePCT)
        try r.expectEnd()
        return event
    }

    /// Parses `packet`, checking that it is this LE Meta subevent.
    public static func decode(packet: HCIPacket, role: CSRole, sequencePCT: Bool = false) throws(DecodeError) -> Self {
        try decode(try packet.leSubeventBody(subeventCode), role: role, sequencePCT: sequencePCT)
    }

    /// Header plus steps, in octets (without the subevent code).
    public var encodedLength: Int { Self.headerLength - 5 + stepsReport.encodedLength }

    public var parameterCapacity: Int { encodedLength }

    public var procedureDoneStatus: ProcedureDoneStatus {
        get { stepsReport.procedureDoneStatus }
        set { stepsReport.procedureDoneStatus = newValue }
    }
    public var subeventDoneStatus: SubeventDoneStatus {
        get { stepsReport.subeventDoneStatus }
        set { stepsReport.subeventDoneStatus = newValue }
    }
    public var abortReasons: AbortReasons {
        get { stepsReport.abortReasons }
        set { stepsReport.abortReasons = newValue }
    }
    /// N_AP, 0 (not applicable) ... 4.
    public var numAntennaPaths: UInt8 {
        get { stepsReport.numAntennaPaths }
        set { stepsReport.numAntennaPaths = newValue }
    }
    public var steps: [SubeventStep] {
        get { stepsReport.steps }
        set { stepsReport.steps = newValue }
    }
}
