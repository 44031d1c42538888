/// One accessory requirement iOS 27 states for Channel Sounding with iPhone (WWDC26 session 369
/// "Find your accessory with Bluetooth Channel Sounding"; reference ios-api.md §5.1).
public enum IOSRequirement: UInt8, Sendable, Equatable, CaseIterable {
    /// The controller reports Bluetooth Core 6.3 or later (HCI_Version ≥ 0x11 [U]).
    case bluetooth63
    /// The controller supports the reflector role (the iPhone initiates).
    case reflectorRole
    /// Phase-based ranging with mode-0 and mode-2 steps. Both are mandatory for every CS
    /// controller and the capabilities block cannot say otherwise, so this is always met.
    case phaseBasedRangingModes
    /// Inline PCT Transfer in the reflector (Subfeatures_Supported bit 4, Core 6.3).
    case inlinePCT
    /// A supported T_FCS of at least 100 µs.
    case tFCSAtLeast100us

    /// A one-line description a CLI can print.
    public var summary: StaticString {
        switch self {
        case .bluetooth63: return "Bluetooth Core 6.3 or later (HCI_Version >= 0x11)"
        case .reflectorRole: return "CS reflector role supported"
        case .phaseBasedRangingModes: return "phase-based ranging with mode-0 and mode-2 steps"
        case .inlinePCT: return "Inline PCT Transfer in the reflector (subfeature bit 4)"
        case .tFCSAtLeast100us: return "T_FCS of at least 100 us supported"
        }
    }
}
