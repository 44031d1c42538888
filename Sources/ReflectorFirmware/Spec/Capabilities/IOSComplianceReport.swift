/// Whether a controller's CS capabilities meet what iOS 27 requires of an accessory
/// (WWDC26 session 369; reference ios-api.md §5.1): Bluetooth 6.3, inline PCT, phase-based
/// ranging with modes 0 and 2, and "T_FCS of at least 100 µs".
///
/// T_FCS decision: the talk asks that the accessory *supports* a T_FCS of at least 100 µs.
/// Every controller supports the mandatory 150 µs, so by default (`TFCSPolicy.anySupportedValue`)
/// the requirement counts as met by any supported value ≥ 100 µs, the mandatory 150 included;
/// `TFCSPolicy.optionalBitRequired` demands the 100 or 120 µs bit instead. Because Apple may mean the optional
/// 100/120 µs bits, the report also says whether those bits are set (`supportsTFCS100`,
/// `supportsTFCS120`) so a tool can warn when only 150 µs is available.
public struct IOSComplianceReport: Sendable, Equatable {
    /// Requirements not met, in `IOSRequirement.allCases` order; empty when compliant.
    public let unmet: [IOSRequirement]
    /// Whether the optional T_FCS bits for 100 µs (bit 7) and 120 µs (bit 8) are set.
    public let supportsTFCS100: Bool
    public let supportsTFCS120: Bool

    public var isCompliant: Bool { unmet.isEmpty }
    /// T_FCS ≥ 100 µs is met only through the mandatory 150 µs.
    public var tFCSMetOnlyByMandatory150: Bool { !supportsTFCS100 && !supportsTFCS120 }

    /// HCI_Version (and LL VersNr) of Bluetooth Core 6.3 (Assigned Numbers sequence; reference §7 [U]).
    public static let bluetoothVersion63: UInt8 = 0x11

    /// Checks `capabilities` of a controller reporting HCI_Version `bluetoothVersion`;
    /// `tFCSPolicy` chooses how strictly "T_FCS of at least 100 µs" is read.
    public init(capabilities c: CSCapabilities, bluetoothVersion: UInt8, tFCSPolicy: TFCSPolicy = .anySupportedValue) {
        var unmet: [IOSRequirement] = []
        if bluetoothVersion < Self.bluetoothVersion63 { unmet.append(.bluetooth63) }
        if !c.supports(CSRole.reflector) { unmet.append(.reflectorRole) }
        if !(c.supports(CSMode.mode0) && c.supports(CSMode.mode2)) { unmet.append(.phaseBasedRangingModes) }
        if !c.supportsInlinePCT { unmet.append(.inlinePCT) }
        let has100 = c.tFCSTimes.contains(100)
        let has120 = c.tFCSTimes.contains(120)
        let fcsMet: Bool
        switch tFCSPolicy {
        case .anySupportedValue: fcsMet = has100 || has120 || c.tFCSTimes.contains(150)
        case .optionalBitRequired: fcsMet = has100 || has120
        }
        if !fcsMet { unmet.append(.tFCSAtLeast100us) }
        self.unmet = unmet
        supportsTFCS100 = has100
        supportsTFCS120 = has120
    }
}
