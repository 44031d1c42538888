/// Why a step is in the plan: it decides the step's mode and where its channel comes from.
public enum StepKind: UInt8, Sendable, Equatable {
    /// A mode-0 step opening a subevent (channel from the mode-0 shuffle).
    case mode0
    /// A main-mode step (channel from #3b/#3c).
    case main
    /// A sub-mode step inserted after a run of main-mode steps (channel from #3b/#3c).
    case subMode
    /// A main-mode repetition step replaying a channel of the previous subevent.
    case repetition
}
