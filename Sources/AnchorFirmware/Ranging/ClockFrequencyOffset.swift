/// The Response DTM's CFO field: "Responder Clock Frequency Offset with respect to the Initiator
/// in the unit of ppm … Q6.10 … range of [−32 ppm, 32 ppm)" (Qorvo `cfo_ppm_q10`, FiRa MAC 2.0
/// 5.9.13.2).
///
/// Decision (sign): as Apple's `responderClockFrequencyOffset`, "positive value means for every 1
/// clock cycle, the responder runs fewer cycles than initiator": field = (1 − β)·10⁶·1024 with
/// β = responder ticks per initiator tick. The radio's measurement, `carrierFrequencyOffsetPPM`,
/// is the sender's frequency relative to the receiver's, (f_sender/f_receiver − 1)·10⁶ (positive
/// when the sender runs fast), so on the Poll β = 1/(1 + c·10⁻⁶) and the field ≈ +c.
public enum ClockFrequencyOffset {
    /// The Q6.10 field from the offset of the initiator measured on its Poll, saturated.
    public static func q610(initiatorOffsetPPM c: Double) -> Int16 {
        let beta = 1 / (1 + c * 1e-6)
        let value = ((1 - beta) * 1e6 * 1024).rounded()
        guard value == value else { return 0 }
        return Int16(max(min(value, 32_767), -32_768))
    }

    /// β, responder ticks per initiator tick, from a received field.
    public static func responderTicksPerInitiatorTick(q610: Int16) -> Double {
        1 - Double(q610) / 1024 * 1e-6
    }
}
