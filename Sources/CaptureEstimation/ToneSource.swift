/// Where a procedure's round-trip tones came from, as `estimate --json` names it (`source`).
public enum ToneSource: String, Sendable, Equatable {
    /// Inline PCT transfer: the initiator's own PCTs are the round-trip tones.
    case inlinePCT = "inline-pct"
    /// The reflector's step data from the Ranging Service's real-time characteristic.
    case rasRealTime = "ras-real-time"
    /// The reflector's step data fetched from the Ranging Service's on-demand characteristic.
    case rasOnDemand = "ras-on-demand"
    /// The reflector's step data from a capture made on the reflector.
    case reflectorCapture = "reflector-capture"
    /// Both sides' step data from a vendor's log.
    case vendorLog = "vendor-log"
}
