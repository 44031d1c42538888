/// The quality of one measured tone, the low nibble of a Tone_Quality_Indicator
/// (Core 6.0 Vol 4 Part E §7.7.65.44, step data of modes 2 and 3).
public enum ToneQuality: UInt8, Sendable, Equatable, CaseIterable {
    case high = 0
    case medium = 1
    case low = 2
    case unavailable = 3
}
