/// What a receiver must know to take step data apart, since the octets do not say it
/// themselves (Core 6.0 Vol 4 Part E §7.7.65.44): the role of the device that measured the
/// step (mode 0 is 5 octets for the initiator, 3 for the reflector), N_AP (tone count of modes
/// 2/3), and whether mode-1/3 steps carry PCT1/PCT2.
public struct StepDataContext: Sendable, Equatable {
    public var role: CSRole
    /// N_AP, 1...4 (0 when unknown: tone steps then fail to decode).
    public var antennaPaths: Int
    /// Phase-based ranging from the sounding sequence in use (mode 1/3 data is 14 octets).
    public var sequencePCT: Bool

    public init(role: CSRole, antennaPaths: Int = 1, sequencePCT: Bool = false) {
        (self.role, self.antennaPaths, self.sequencePCT) = (role, antennaPaths, sequencePCT)
    }

    /// The Step_Data length of a `mode` step; `nil` for a tone mode when N_AP is not 1...4.
    public func stepDataLength(_ mode: CSMode) -> Int? {
        switch mode {
        case .mode0: return Mode0StepData.encodedLength(role: role)
        case .mode1: return Mode1StepData.encodedLength(sequencePCT: sequencePCT)
        case .mode2, .mode3:
            guard (1...4).contains(antennaPaths) else { return nil }
            let tones = ToneStepData.encodedLength(antennaPaths: antennaPaths)
            return mode == .mode2 ? tones : Mode1StepData.encodedLength(sequencePCT: sequencePCT) + tones
        }
    }
}
