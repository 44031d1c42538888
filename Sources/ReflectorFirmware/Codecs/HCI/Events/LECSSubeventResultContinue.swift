import WireFormat

/// LE CS Subevent Result Continue (LE Meta 0x32): further steps of a subevent whose results
/// did not fit in one LE CS Subevent Result event (Core 6.0 Vol 4 Part E §7.7.65.45).
///
/// 8-octet header: `Connection_Handle 2 | Config_ID 1 | Procedure_Done_Status 1 |
/// Subevent_Done_Status 1 | Abort_Reason 1 | Num_Antenna_Paths 1 | Num_Steps_Reported 1`,
/// then the steps.
public struct LECSSubeventResultContinue: LEMetaSubeventEncodable, SubeventStepsReporting {
    public static let subeventCode: UInt8 = LESubeventCode.csSubeventResultContinue
    public static let headerLength = 8

    public var connectionHandle: UInt16
    public var configID: UInt8
    /// Procedure_Done_Status to the steps (also readable as this event's own fields).
    public var stepsReport: SubeventStepsReport

    public init(connectionHandle: UInt16, configID: UInt8, stepsReport: SubeventStepsReport) {
        self.connectionHandle = connectionHandle
        self.configID = configID
        self.stepsReport = stepsReport
    }

    /// Header plus steps, in octets (without the subevent code).
    public var encodedLength: Int { 3 + stepsReport.encodedLength }

    public var parameterCapacity: Int { encodedLength }

    /// The parameters after the subevent code.
    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u8(configID)
        stepsReport.encode(into: &w)
    }

    /// Parses the parameters after the subevent code (see `LECSSubeventResult.decode`).
    public static func decode(_ parameters: some Collection<UInt8>, role: CSRole, sequencePCT: Bool = false) throws(DecodeError) -> LECSSubeventResultContinue {
        var r = ByteReader(parameters)
        let h = try r.connectionHandle()
        let id = try r.configID()
        let report = try SubeventStepsReport.decode(from: &r, role: role, sequencePCT: sequencePCT)
        try r.expectEnd()
        return LECSSubeventResultContinue(connectionHandle: h, configID: id, stepsReport: report)
    }

    /// Parses `packet`, checking that it is LE Meta subevent 0x32.
    public static func decode(packet: HCIPacket, role: CSRole, sequencePCT: Bool = false) throws(DecodeError) -> LECSSubeventResultContinue {
        try decode(try packet.leSubeventBody(subeventCode), role: role, sequencePCT: sequencePCT)
    }
}
