/// Step durations (Core 6.0 Vol 6 Part H §4.x, step timing; formulas as NimBLE PR #1765
/// `ble_ll_cs_proc_calculate_timing` applies them, reference §5.2–5.3):
///
/// ```
/// mode 0: 2(T_SY + T_RD) + T_IP1 + T_GD + T_FM + T_FCS
/// mode 1: 2(T_SY + T_RD) + T_IP1 + T_FCS
/// mode 2: 2[(T_SW + T_PM)(N_AP + 1) + T_RD] + T_IP2 + T_FCS
/// mode 3: 2[T_SY + T_GD + (T_SW + T_PM)(N_AP + 1) + T_RD] + T_IP2 + T_FCS
/// ```
///
/// T_SY includes the RTT sequence for modes 1 and 3; mode-0 CS_SYNC packets carry no sequence.
/// Every function here is pure and allocation-free: the planner calls them per step.
extension CSTiming {
    /// T_RD, the ramp-down time: 5 µs.
    public static let rampDown: UInt32 = 5
    /// T_GD, the guard time before a tone: 10 µs.
    public static let guardTime: UInt32 = 10
    /// T_FM, the mode-0 frequency-measurement tone: 80 µs.
    public static let frequencyMeasurement: UInt32 = 80

    /// T_SY in half-microseconds: 44 µs on LE 1M and 26 µs on LE 2M/2M 2BT for preamble,
    /// access address and trailer, plus the sequence bits at 1 µs (1M) or 0.5 µs (2M) each.
    @inline(__always)
    public static func syncDurationHalfMicroseconds(phy: CSSyncPHY, rttType: RTTType) -> UInt32 {
        let bits = UInt32(rttType.sequenceOctets) * 8
        switch phy {
        case .le1M: return 2 * (44 + bits)
        case .le2M, .le2M2BT: return 2 * 26 + bits
        }
    }

    /// T_SY in µs, half microseconds rounded up. (Sequences are whole octets, so on LE 2M the
    /// sequence time is always a whole number of µs and the rounding never applies in practice.)
    @inline(__always)
    public static func syncDuration(phy: CSSyncPHY, rttType: RTTType) -> UInt32 {
        (syncDurationHalfMicroseconds(phy: phy, rttType: rttType) + 1) / 2
    }

    /// The duration of one step in µs.
    ///
    /// - `antennaPaths`: N_AP, clamped to 1...4 (used by modes 2 and 3 only).
    /// - `phy`, `rttType`: the CS_SYNC PHY and RTT type; mode 0 uses no sequence, mode 2 no CS_SYNC.
    ///
    /// Computed in half microseconds and rounded up to whole µs at the end (with whole-octet
    /// sequences the result is exact).
    public func stepDuration(mode: CSMode, antennaPaths: Int, phy: CSSyncPHY, rttType: RTTType) -> UInt32 {
        let nAP = UInt32(max(1, min(4, antennaPaths)))
        let ip1 = UInt32(tIP1) * 2, ip2 = UInt32(tIP2) * 2, fcs = UInt32(tFCS) * 2
        let rd = Self.rampDown * 2, gd = Self.guardTime * 2, fm = Self.frequencyMeasurement * 2
        let tones = (UInt32(tSW) + UInt32(tPM)) * (nAP + 1) * 2
        let half: UInt32
        switch mode {
        case .mode0:
            let sy = Self.syncDurationHalfMicroseconds(phy: phy, rttType: .accessAddressOnly)
            half = 2 * (sy + rd) + ip1 + gd + fm + fcs
        case .mode1:
            let sy = Self.syncDurationHalfMicroseconds(phy: phy, rttType: rttType)
            half = 2 * (sy + rd) + ip1 + fcs
        case .mode2:
            half = 2 * (tones + rd) + ip2 + fcs
        case .mode3:
            let sy = Self.syncDurationHalfMicroseconds(phy: phy, rttType: rttType)
            half = 2 * (sy + gd + tones + rd) + ip2 + fcs
        }
        return (half + 1) / 2
    }
}
