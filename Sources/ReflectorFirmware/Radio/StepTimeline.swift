/// Where each part of a step falls, in µs from the step's start (Core 6.0 Vol 6 Part H §4.x, the
/// step structures of reference §5.3). The initiator always transmits first; the reflector
/// answers after T_IP1 (CS_SYNC) or T_IP2 (tones). Tone slot k of a group begins with the T_SW
/// antenna switch, then T_PM of tone; slot N_AP is the tone-extension slot.
public struct StepTimeline: Sendable, Equatable {
    /// T_SY of the step's CS_SYNC packets (0 for mode 2).
    public let syncDuration: UInt32
    /// Start of the initiator's and the reflector's CS_SYNC packets (modes 0, 1, 3).
    public let initiatorSync: UInt32
    public let reflectorSync: UInt32
    /// Start of the reflector's T_FM frequency-measurement tone (mode 0).
    public let frequencyMeasurementTone: UInt32
    /// Start of each side's group of tone slots (modes 2, 3).
    public let initiatorTones: UInt32
    public let reflectorTones: UInt32
    /// T_SW + T_PM: the spacing of tone slots.
    public let slotPitch: UInt32
    public let switchTime: UInt32
    public let toneDuration: UInt32

    public init(mode: CSMode, timing: CSTiming, antennaPaths: Int, phy: CSSyncPHY, rttType: RTTType) {
        let sy = mode.hasCSSync ? CSTiming.syncDuration(phy: phy, rttType: mode == .mode0 ? .accessAddressOnly : rttType) : 0
        let rd = CSTiming.rampDown
        let gd = CSTiming.guardTime
        let pitch = UInt32(timing.tSW) + UInt32(timing.tPM)
        let group = pitch * UInt32(max(1, min(antennaPaths, 4)) + 1)
        syncDuration = sy
        slotPitch = pitch
        switchTime = UInt32(timing.tSW)
        toneDuration = UInt32(timing.tPM)
        initiatorSync = 0
        switch mode {
        case .mode0, .mode1:
            reflectorSync = sy + rd + UInt32(timing.tIP1)
            frequencyMeasurementTone = reflectorSync + sy + gd
            initiatorTones = 0
            reflectorTones = 0
        case .mode2:
            reflectorSync = 0
            frequencyMeasurementTone = 0
            initiatorTones = 0
            reflectorTones = group + rd + UInt32(timing.tIP2)
        case .mode3:
            initiatorTones = sy + gd
            reflectorTones = initiatorTones + group + rd + UInt32(timing.tIP2)
            reflectorSync = reflectorTones + group + gd
            frequencyMeasurementTone = 0
        }
    }

    /// Start of tone slot `slot` (its antenna switch) within a group starting at `group`.
    @inline(__always)
    public func slotStart(_ slot: Int, group: UInt32) -> UInt32 { group + UInt32(slot) * slotPitch }
}
