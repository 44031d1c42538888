import ReflectorFirmware

/// What an iPhone-like phone asks of a reflector when nothing says otherwise: mode 2 with three
/// mode-0 steps, all 72 channels (algorithm 3b), inline PCT transfer, a 20 ms procedure at the
/// most, each procedure as soon as the last allows (ios-api.md, reference channel-sounding.md
/// §5). The loopback, `range` and the served board's emulated phone start from these.
public enum PhoneDefaults {
    /// The configuration the phone creates (role initiator).
    public static func configuration(inlinePCT: Bool = true) -> CSConfiguration {
        CSConfiguration(configID: 0, mainMode: .mode2, subMode: nil, mode0Steps: 3, role: .initiator, rttType: .accessAddressOnly,
                        csSyncPHY: .le1M, channelMap: .allowed, channelMapRepetition: 1, channelSelection: .algorithm3b, inlinePCT: inlinePCT)
    }

    /// The procedure parameters the phone sets; Max_Procedure_Count 0 runs until stopped.
    public static func parameters(antennaConfiguration aci: AntennaConfiguration = AntennaConfiguration(index: 0)!) -> ProcedureParameters {
        ProcedureParameters(maxProcedureLength: 320, minProcedureInterval: 1, maxProcedureInterval: 100, maxProcedureCount: 0,
                            minSubeventLength: 1250, maxSubeventLength: 7000, antennaConfiguration: aci, phy: 1, preferredPeerAntenna: 0x01)
    }
}
