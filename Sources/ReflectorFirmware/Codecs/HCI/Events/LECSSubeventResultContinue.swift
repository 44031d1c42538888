import WireFormat

/// LE CS Subevent Result Continue (LE Meta 0x32): further steps of a subevent whose results
/// did not fit in one LE CS Subevent Result event (Core 6.0 Vol 4 Part E §7.7.65.45).
///
/// 8-octet header: `Connection_Handle 2 | Config_ID 1 | Procedure_Done_Status 1 |
/// Subevent_Done_Status 1 | Abort_Reason 1 | Num_Antenna_Paths 1 | Num_Steps_Reported 1`,
/// then the steps.
public struct LECSSubeventResultContinue: SubeventResultParameters {
    public static let subeventCode: UInt8 = LESubeventCode.csSubeventResultContinue
    public static var name: StaticString { "LE CS Subevent Result Continue" }
    public static let headerLength = 8

    public var connectionHandle: UInt16
    public var configID: UInt8
    /// Procedure_Done_Status to the steps (also readable as this event's own fields).
    public var stepsReport: SubeventStepsReport

    public init(connectionHandle: UInt16, configID: UInt8, stepsReport: SubeventStepsReport) {
        (self.connectionHandle, self.configID, self.stepsReport) = (connectionHandle, configID, stepsReport)
    }

    /// The parameters after the subevent code.
    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u8(configID)
        stepsReport.encode(into: &w)
    }

    public static func decodeParameters(_ r: inout ByteReader, role: CSRole, sequencePCT: Bool) throws(DecodeError) -> LECSSubeventResultContinue {
        LECSSubeventResultContinue(connectionHandle: try r.connectionHandle(), configID: try r.configID(),
                                   stepsReport: try SubeventStepsReport.decode(from: &r, role: role, sequencePCT: sequencePCT))
    }
}
