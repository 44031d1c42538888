/// How the two devices authenticate a pairing (Core 6.0 Vol 3 Part H §2.3.5.1, Tables
/// 2.6–2.8): from both IO capabilities, when either asks for MITM protection.
public enum PairingMethod: Sendable, Equatable {
    /// No user step; no MITM protection (unauthenticated keys).
    case justWorks
    /// Both show a six-digit number and their users confirm it matches.
    case numericComparison
    /// A six-digit passkey: shown on one side and typed on the other (or typed on both).
    case passkey(initiatorDisplays: Bool, responderDisplays: Bool)

    /// Whether the keys are authenticated (MITM-protected).
    public var isAuthenticated: Bool { self != .justWorks }

    /// The method for these features (out-of-band data is not supported here and counts as
    /// absent). Just Works unless one side sets MITM; then Table 2.8 by IO capability (rows: the
    /// initiator's; columns: the responder's). LE legacy pairing has no Numeric Comparison:
    /// Table 2.8's legacy entries are Just Works there.
    public static func choose(initiator: PairingFeatures, responder: PairingFeatures, legacy: Bool = false) -> PairingMethod {
        let mitm = initiator.authRequirements.contains(.mitm) || responder.authRequirements.contains(.mitm)
        guard mitm else { return .justWorks }
        let m = table(initiator: initiator.ioCapability, responder: responder.ioCapability)
        return legacy && m == .numericComparison ? .justWorks : m
    }

    static func table(initiator i: IOCapability, responder r: IOCapability) -> PairingMethod {
        if i == .noInputNoOutput || r == .noInputNoOutput { return .justWorks }
        switch (i, r) {
        case (.displayOnly, .displayOnly), (.displayOnly, .displayYesNo), (.displayYesNo, .displayOnly): return .justWorks
        case (.displayYesNo, .displayYesNo), (.displayYesNo, .keyboardDisplay), (.keyboardDisplay, .displayYesNo),
             (.keyboardDisplay, .keyboardDisplay):
            return .numericComparison
        // The responder shows the passkey and the initiator's user types it.
        case (.keyboardOnly, .displayOnly), (.keyboardOnly, .displayYesNo), (.keyboardOnly, .keyboardDisplay),
             (.keyboardDisplay, .displayOnly):
            return .passkey(initiatorDisplays: false, responderDisplays: true)
        // The initiator shows it and the responder's user types it.
        case (.displayOnly, .keyboardOnly), (.displayYesNo, .keyboardOnly), (.keyboardDisplay, .keyboardOnly),
             (.displayOnly, .keyboardDisplay):
            return .passkey(initiatorDisplays: true, responderDisplays: false)
        // Both type the same passkey.
        case (.keyboardOnly, .keyboardOnly): return .passkey(initiatorDisplays: false, responderDisplays: false)
        default: return .justWorks
        }
    }
}
