/// Choosing the times of a configuration from both sides' capabilities (Core 6.0 Vol 6
/// Part B §5.1.x, CS configuration procedure; HCI Create Config, Vol 4 Part E §7.8.137).
///
/// The spec leaves the choice to the initiating controller. This project follows NimBLE PR
/// #1765 (`ble_ll_cs_select_capability`): for each of T_IP1, T_IP2, T_FCS and T_PM take the
/// **smallest** value in (local ∪ mandatory) ∩ (remote ∪ mandatory); the mandatory value is
/// always common, so selection never fails.
///
/// Inline PCT Transfer (Core 6.3) decision [U: one third-party source, reference §4.1, §6.5]:
/// when IPT is in use, T_IP2 is chosen from the initiator's T_IP2 list and the **reflector's
/// T_IP2_IPT list** (each with the mandatory 145 µs), and the reflector's **T_SW_IPT**
/// replaces its T_SW. The initiator's own T_SW is unchanged.
extension CSTiming {
    /// The T_SW a procedure uses for antenna configuration `aci` (NimBLE
    /// `ble_ll_cs_proc_set_t_sw`, reference §5.2): ACI 0 → 0; ACI 1–3 (only the initiator
    /// switches) → the initiator's T_SW; ACI 4–6 (only the reflector switches) → the
    /// reflector's; ACI 7 (both switch) → the larger. Under IPT the reflector's value is its
    /// T_SW_IPT.
    public static func antennaSwitchTime(
        antennaConfiguration aci: AntennaConfiguration, initiator: CSCapabilities, reflector: CSCapabilities,
        inlinePCT: Bool
    ) -> UInt16 {
        let i = initiator.tSW.microseconds
        let r = inlinePCT ? reflector.tSWIPT.microseconds : reflector.tSW.microseconds
        switch aci.index {
        case 0: return 0
        case 1, 2, 3: return i
        case 4, 5, 6: return r
        default: return max(i, r)
        }
    }

    /// The times for a configuration between `local` (whose role is `localRole`) and `remote`.
    ///
    /// T_SW is 0 unless `antennaConfiguration` is given (it is only known once Set Procedure
    /// Parameters has chosen the ACI).
    public static func selected(
        local: CSCapabilities, remote: CSCapabilities, localRole: CSRole, inlinePCT: Bool,
        antennaConfiguration: AntennaConfiguration? = nil
    ) -> CSTiming {
        let initiator = localRole == .initiator ? local : remote
        let reflector = localRole == .initiator ? remote : local
        let ip2: UInt16
        if inlinePCT {
            ip2 = initiator.tIP2Times.smallestCommon(with: reflector.tIP2IPTTimes)
        } else {
            ip2 = local.tIP2Times.smallestCommon(with: remote.tIP2Times)
        }
        var sw: UInt16 = 0
        if let aci = antennaConfiguration {
            sw = antennaSwitchTime(antennaConfiguration: aci, initiator: initiator, reflector: reflector, inlinePCT: inlinePCT)
        }
        return CSTiming(
            tIP1: local.tIP1Times.smallestCommon(with: remote.tIP1Times),
            tIP2: ip2,
            tFCS: local.tFCSTimes.smallestCommon(with: remote.tFCSTimes),
            tPM: local.tPMTimes.smallestCommon(with: remote.tPMTimes),
            tSW: sw
        )
    }
}
