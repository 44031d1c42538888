/// What happens to random bits of a transaction ID's block that a step did not use.
///
/// Core 6.0 Vol 6 Part E §3.1.6 generates 128 bits at a time per transaction ID and resets the
/// transaction counter when the step counter changes, but public controllers disagree on
/// whether the unused bits of one step may serve the next: NimBLE keeps them until the next
/// subevent, TI until the next procedure. Both devices of a link must use the same policy, so
/// it is an explicit setting rather than an accident of caching.
public enum LeftoverBitPolicy: Sendable, Equatable {
    /// Discard leftovers whenever a different step asks for bits: every step starts from a
    /// fresh block at transaction counter 0. The default: no step's values depend on how many
    /// bits an earlier step happened to use.
    case regeneratePerStep
    /// Keep leftovers across the steps of a subevent (NimBLE's controller).
    case keepWithinSubevent
    /// Keep leftovers across the steps of a procedure (TI's controller).
    case keepWithinProcedure
}
