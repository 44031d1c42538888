import WireFormat

/// Subevent_Done_Status of a subevent result (Core 6.0 Vol 4 Part E §7.7.65.44): whether all
/// results of the current CS subevent are reported.
public enum SubeventDoneStatus: UInt8, Sendable, Equatable, CaseIterable {
    /// All results for the subevent have been reported.
    case complete = 0x0
    /// Partial results; a Subevent Result Continue event follows.
    case partial = 0x1
    /// The current subevent is aborted.
    case aborted = 0xF
}
