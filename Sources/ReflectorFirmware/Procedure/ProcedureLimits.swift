/// The structural limits of a CS procedure (Core 6.0 Vol 6 Part H §4.x; TI and NimBLE enforce
/// the same numbers).
public enum ProcedureLimits {
    public static let minStepsPerSubevent = 2
    public static let maxStepsPerSubevent = 160
    public static let maxStepsPerProcedure = 256
    public static let maxSubeventsPerProcedure = 32
}
