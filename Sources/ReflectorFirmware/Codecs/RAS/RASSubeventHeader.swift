import WireFormat

/// The header of one subevent in RAS ranging data (RAS 1.0 §3.2.1.2; nRF `ras.h`
/// `ras_subevent_header`), 8 octets: `Start_ACL_Conn_Event 2 | Frequency_Compensation 2 |
/// [Ranging_Done_Status:4 | Subevent_Done_Status:4] | [Ranging_Abort_Reason:4 |
/// Subevent_Abort_Reason:4] | Reference_Power_Level int8 | Num_Steps_Reported 1`.
/// The status and abort values are the HCI ones (low nibble first).
public struct RASSubeventHeader: Sendable, Equatable {
    public static let encodedLength = 8

    public var startACLConnectionEvent: UInt16
    public var frequencyCompensation: UInt16
    public var rangingDoneStatus: ProcedureDoneStatus
    public var subeventDoneStatus: SubeventDoneStatus
    public var abortReasons: AbortReasons
    public var referencePowerLevel: Int8
    public var numStepsReported: UInt8

    public init(startACLConnectionEvent: UInt16, frequencyCompensation: UInt16 = 0xC000,
                rangingDoneStatus: ProcedureDoneStatus = .complete, subeventDoneStatus: SubeventDoneStatus = .complete,
                abortReasons: AbortReasons = .none, referencePowerLevel: Int8 = 0x7F, numStepsReported: UInt8) {
        self.startACLConnectionEvent = startACLConnectionEvent
        self.frequencyCompensation = frequencyCompensation
        self.rangingDoneStatus = rangingDoneStatus
        self.subeventDoneStatus = subeventDoneStatus
        self.abortReasons = abortReasons
        self.referencePowerLevel = referencePowerLevel
        self.numStepsReported = numStepsReported
    }

    public func encode(into w: inout ByteWriter) {
        w.u16(startACLConnectionEvent)
        w.u16(frequencyCompensation)
        w.u8(rangingDoneStatus.rawValue | subeventDoneStatus.rawValue << 4)
        w.u8(abortReasons.octet)
        w.i8(referencePowerLevel)
        w.u8(numStepsReported)
    }

    public static func decode(from r: inout ByteReader) throws(DecodeError) -> RASSubeventHeader {
        let start = try r.u16("Start_ACL_Conn_Event")
        let fc = try r.u16("Frequency_Compensation")
        let done = try r.u8("Done_Status")
        let rds = try ProcedureDoneStatus(decoding: done & 0x0F, "Ranging_Done_Status")
        let sds = try SubeventDoneStatus(decoding: done >> 4, "Subevent_Done_Status")
        let abort = try AbortReasons(octet: try r.u8("Abort_Reason"))
        let power = try r.i8("Reference_Power_Level")
        let n = try r.u8("Num_Steps_Reported")
        return RASSubeventHeader(startACLConnectionEvent: start, frequencyCompensation: fc, rangingDoneStatus: rds,
                                 subeventDoneStatus: sds, abortReasons: abort, referencePowerLevel: power, numStepsReported: n)
    }
}
