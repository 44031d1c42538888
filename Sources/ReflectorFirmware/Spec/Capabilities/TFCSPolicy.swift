/// How the iOS check reads "supports T_FCS of at least 100 µs" (WWDC26 session 369), which
/// is ambiguous because every controller supports the mandatory 150 µs (reference ios-api.md
/// §5.1 [U]).
public enum TFCSPolicy: UInt8, Sendable, Equatable, CaseIterable {
    /// Any supported T_FCS ≥ 100 µs counts, the mandatory 150 µs included: always met.
    /// The project's default reading of the talk's wording.
    case anySupportedValue
    /// The optional 100 µs or 120 µs capability bit must be set.
    case optionalBitRequired
}
