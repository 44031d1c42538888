/// Why a sequence of LE CS Subevent Result / Continue events (Core 6.0 Vol 4 Part E
/// §7.7.65.44–45) could not be joined into one subevent.
public enum SubeventReassemblyError: Error, Equatable, Sendable {
    /// A Continue event arrived with no subevent in progress.
    case continuationWithoutResult
    /// A Continue event's Connection_Handle, Config_ID or Num_Antenna_Paths differs from the
    /// Subevent Result it continues; the subevent in progress was dropped.
    case mismatchedContinuation
    /// More than 160 steps were reported for one subevent; the subevent was dropped.
    case tooManySteps
}
