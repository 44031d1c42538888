/// What a radio reports after a tone slot: the averaged I/Q over T_PM (the phase correction
/// term before packing), an estimate of the tone's SNR, and the frequency offset it measured.
public struct ToneReception: Sendable, Equatable {
    /// Mean baseband I/Q over the measurement window, in the radio's PCT scale (±2047 full scale).
    public var iq: IQSample
    /// The radio's estimate of the tone's signal-to-noise ratio in dB (-∞ when nothing arrived).
    public var snrDB: Float
    /// Frequency offset of the received tone from this device's carrier, in parts per million
    /// (what mode-0 frequency measurement reports).
    public var frequencyOffsetPPM: Float

    public init(iq: IQSample, snrDB: Float, frequencyOffsetPPM: Float = 0) {
        self.iq = iq
        self.snrDB = snrDB
        self.frequencyOffsetPPM = frequencyOffsetPPM
    }

    /// The tone quality this controller reports for the reception. The thresholds are this
    /// implementation's (the spec leaves them to the controller): ≥ 20 dB high, ≥ 10 dB medium,
    /// below that low. Never "unavailable" (Tone_Quality_Indicator 3, Core 6.0 Vol 4 Part E
    /// §7.7.65.44): that says a controller has no indication, and this one always has one; a
    /// host judges unavailable tones itself rather than dropping them.
    public var quality: ToneQuality {
        if snrDB >= 20 { return .high }
        if snrDB >= 10 { return .medium }
        return .low
    }
}
