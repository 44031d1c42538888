/// One tone entry of mode-2/3 step data: `PCT 3 | Tone_Quality_Indicator 1`
/// (Core 6.0 Vol 4 Part E §7.7.65.44).
public struct ToneMeasurement: Sendable, Equatable, Hashable {
    public var pct: PhaseCorrectionTerm
    public var quality: ToneQualityIndicator

    public init(pct: PhaseCorrectionTerm = PhaseCorrectionTerm(packed: 0), quality: ToneQualityIndicator = ToneQualityIndicator()) {
        (self.pct, self.quality) = (pct, quality)
    }

    public static let encodedLength = 4
}
