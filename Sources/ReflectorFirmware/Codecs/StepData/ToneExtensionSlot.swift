/// Whether a tone entry is the tone-extension slot and whether a tone was expected there, the
/// high nibble of a Tone_Quality_Indicator (Core 6.0 Vol 4 Part E §7.7.65.44).
public enum ToneExtensionSlot: UInt8, Sendable, Equatable, CaseIterable {
    /// A regular antenna-path tone, not the extension slot.
    case notExtensionSlot = 0
    /// The extension slot; the peer did not transmit a tone there.
    case toneNotExpected = 1
    /// The extension slot; the peer transmitted a tone there.
    case toneExpected = 2
}
