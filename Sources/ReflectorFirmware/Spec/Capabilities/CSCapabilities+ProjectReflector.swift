/// The capabilities this project's reflector firmware reports (Read Local Supported
/// Capabilities, v1 and v2): a Core 6.3 controller built to meet iOS 27's accessory
/// requirements (WWDC26 session 369; reference ios-api.md §5.1).
extension CSCapabilities {
    /// The firmware's capabilities for a board with `antennas` antennas (clamped to 1...4).
    ///
    /// - Roles: reflector, and initiator too, because the emulator plays both sides.
    /// - Modes: 0, 1, 2 (mandatory) and mode 3: the step model implements all four.
    /// - RTT: every variant supported (N = 10 steps each, 150 ns precision claimed — the model
    ///   makes no precision promise); no NADM; 2M N values equal the 1M ones.
    /// - CS_SYNC on LE 1M, 2M and 2M 2BT (the timing model covers all three).
    /// - Subfeatures: no transmitter FAE (the model's carrier is exact), channel selection #3c,
    ///   Inline PCT Transfer in the reflector (bit 4, required by iOS). Not claimed: PBR from
    ///   the sounding sequence.
    /// - Times: every optional T_IP1, T_IP2, T_FCS (so 100 and 120 µs, as iOS asks) and T_PM;
    ///   T_IP2 under IPT from 20 µs up (0x007E, the value Nordic's IPT reflector reports: the
    ///   phase adjustment needs time); T_SW and T_SW_IPT 10 µs when the board switches
    ///   antennas, 0 with a single antenna.
    /// - Four configurations; Max_Consecutive_Procedures 0 (fixed and indefinite counts).
    /// - Max_Antenna_Paths 4: even a one-antenna reflector takes part in N_AP = 4 with a
    ///   four-antenna initiator (ACI 3).
    public static func projectReflector(antennas: Int = 1) -> CSCapabilities {
        let n = UInt8(max(1, min(4, antennas)))
        let sw: AntennaSwitchTime = n > 1 ? .us10 : .none
        return CSCapabilities(
            numConfigSupported: 4, maxConsecutiveProcedures: 0,
            numAntennas: n, maxAntennaPaths: 4,
            roles: [.initiator, .reflector], optionalModes: [.mode3],
            rttPrecision: [], rttAccessAddressOnlyN: 10, rttSoundingN: 10, rttRandomSequenceN: 10,
            nadmSounding: [], nadmRandomSequence: [],
            syncPHYs: [.le2M, .le2M2BT],
            subfeatures: [.noTransmitterFAE, .channelSelection3c, .inlinePCTReflector],
            tIP1Times: .all(.tIP1), tIP2Times: .all(.tIP2), tFCSTimes: .all(.tFCS), tPMTimes: .all(.tPM),
            tSW: sw, txSNR: [],
            tIP2IPTTimes: TimeSet(.tIP2, bits: 0x007E), tSWIPT: n > 1 ? .us10 : .none,
            rtt2MAccessAddressOnlyN: 10, rtt2MSoundingN: 10, rtt2MRandomSequenceN: 10
        )
    }
}
