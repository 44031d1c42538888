/// When a procedure's subevents may run: the subevent length and spacing and the procedure's
/// length limit, as Procedure Enable Complete reports them (Core 6.0 Vol 4 Part E §7.7.65.43),
/// in microseconds.
public struct ProcedureSchedule: Sendable, Equatable {
    /// Subevent_Len: the time a subevent's steps may take.
    public var subeventLength: UInt32
    /// Time from one subevent's start to the next (Subevent_Interval, or the event interval
    /// when each event holds one subevent).
    public var subeventInterval: UInt32
    /// Max_Procedure_Len: no subevent may end later than this after the procedure starts.
    public var maxProcedureLength: UInt32

    public init(subeventLength: UInt32, subeventInterval: UInt32? = nil, maxProcedureLength: UInt32) {
        self.subeventLength = subeventLength
        self.subeventInterval = max(subeventInterval ?? subeventLength, subeventLength)
        self.maxProcedureLength = maxProcedureLength
    }
}
