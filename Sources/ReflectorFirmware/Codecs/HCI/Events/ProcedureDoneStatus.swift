import WireFormat

/// Procedure_Done_Status of a subevent result, and Ranging_Done_Status in RAS
/// (Core 6.0 Vol 4 Part E §7.7.65.44): whether all results of the CS procedure are reported.
public enum ProcedureDoneStatus: UInt8, Sendable, Equatable, CaseIterable {
    /// All results for the procedure have been reported.
    case complete = 0x0
    /// Partial results; more follow.
    case partial = 0x1
    /// All subsequent CS procedures are aborted.
    case aborted = 0xF
}
