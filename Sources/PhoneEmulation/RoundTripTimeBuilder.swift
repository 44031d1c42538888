import RangingEstimation
import ReflectorFirmware

/// Turns a procedure's mode-1/3 step results into the timing estimators' input: per step both
/// sides timed, ToA_ToD_Initiator − ToD_ToA_Reflector (Core 6.0 Vol 4 Part E §7.7.65.44; the
/// difference is the round trip, twice the time of flight). The sides' steps pair by order, as
/// both run the same plan (`ToneSetBuilder` pairs tones so too). A step is left out, and
/// counted in `RoundTripTimes.rejected`, when either side's Packet_Quality reports bit errors in
/// the CS Access Address or none found, when either time is "not available" (0x8000), or when
/// the reflector's step is missing or of another mode (its data lost, or no reflector data).
public enum RoundTripTimeBuilder {
    /// `initiator` are the initiator's steps; `reflector` the reflector's in the same order (from
    /// RAS, its own capture, or a vendor's log), nil when there are none.
    public static func times(initiator: [SubeventStep], reflector: [StepData?]?) -> RoundTripTimes {
        var out = RoundTripTimes()
        for (k, step) in initiator.enumerated() {
            guard let mine = timing(step.data) else { continue }
            guard let reflector, k < reflector.count, let data = reflector[k], data.mode == step.mode, let theirs = timing(data) else {
                out.rejected.unpaired += 1
                continue
            }
            guard mine.packetQuality.accessAddressCheck == .ok, theirs.packetQuality.accessAddressCheck == .ok else {
                out.rejected.accessAddress += 1
                continue
            }
            guard mine.toaTod != Mode1StepData.notAvailableToaTod, theirs.toaTod != Mode1StepData.notAvailableToaTod else {
                out.rejected.notAvailable += 1
                continue
            }
            out.samples.append(RoundTripTimes.Sample(channel: step.channel, halfNanoseconds: Int32(mine.toaTod) - Int32(theirs.toaTod)))
        }
        return out
    }

    /// A step's timing fields: mode 1's, or mode 3's first part.
    static func timing(_ data: StepData) -> Mode1StepData? {
        switch data {
        case .mode1(let m), .mode3(let m, _): m
        case .mode0, .mode2: nil
        }
    }
}
