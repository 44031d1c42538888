import Testing
@testable import ReflectorFirmware

/// Create Config, Set Procedure Parameters and Procedure Enable checks: one test per HCI
/// status path, asserting the exact status and the parameter at fault.
struct CSConfigurationValidatorTests {
    typealias V = CSConfigurationValidator

    /// The local controller: this project's reflector with 2 antennas.
    static let local = CSCapabilities.projectReflector(antennas: 2)
    /// A capable initiator peer: every option, 4 antennas.
    static var remote: CSCapabilities {
        CSCapabilities(
            numConfigSupported: 4, numAntennas: 4, maxAntennaPaths: 4, roles: [.initiator, .reflector],
            optionalModes: [.mode3], rttAccessAddressOnlyN: 10, rttSoundingN: 10, rttRandomSequenceN: 10,
            syncPHYs: [.le2M, .le2M2BT], subfeatures: [.channelSelection3c, .inlinePCTReflector],
            tIP1Times: .all(.tIP1), tIP2Times: .all(.tIP2), tFCSTimes: .all(.tFCS), tPMTimes: .all(.tPM),
            tSW: .us2, txSNR: [.snr18dB], tIP2IPTTimes: .all(.tIP2), tSWIPT: .us2
        )
    }
    /// Mode 2, no sub-mode, local role reflector, IPT requested.
    static let config = CSConfiguration()
    static let params = ProcedureParameters()

    func create(_ c: CSConfiguration, local: CSCapabilities = local, remote: CSCapabilities = remote) -> ConfigurationRejection? {
        if case .failure(let r) = V.checkCreateConfig(c, local: local, remote: remote) { return r }
        return nil
    }

    func params(_ p: ProcedureParameters, config c: CSConfiguration = config,
                local: CSCapabilities = local, remote: CSCapabilities = remote) -> ConfigurationRejection? {
        if case .failure(let r) = V.checkProcedureParameters(p, configuration: c, timing: CSTiming(), local: local, remote: remote) { return r }
        return nil
    }

    func invalid(_ p: ConfigurationParameter) -> ConfigurationRejection { .init(.invalidHCICommandParameters, p) }
    func unsupported(_ p: ConfigurationParameter) -> ConfigurationRejection { .init(.unsupportedFeatureOrParameterValue, p) }
    func unsupportedRemote(_ p: ConfigurationParameter) -> ConfigurationRejection { .init(.unsupportedRemoteFeature, p) }

    // MARK: Success

    @Test func acceptsAndSelectsTiming() throws {
        let t = try V.validate(configuration: Self.config, parameters: Self.params, local: Self.local, remote: Self.remote).get()
        // IP1 smallest common 10; IP2 under IPT: initiator all ∩ reflector IPT 0x7E → 20;
        // FCS 15; PM 10; ACI 0 → T_SW 0.
        #expect(t == CSTiming(tIP1: 10, tIP2: 20, tFCS: 15, tPM: 10, tSW: 0))
    }

    @Test func validMainSubCombinations() {
        for (main, sub) in [(CSMode.mode1, CSMode?.none), (.mode2, nil), (.mode2, .mode1), (.mode2, .mode3), (.mode3, nil), (.mode3, .mode2)] {
            var c = Self.config
            c.mainMode = main
            c.subMode = sub
            #expect(create(c) == nil)
        }
    }

    // MARK: Invalid HCI Command Parameters (0x12)

    @Test func configIDAbove3() {
        var c = Self.config
        c.configID = 4
        #expect(create(c) == invalid(.configID))
    }

    @Test func mainModeZero() {
        var c = Self.config
        c.mainMode = .mode0
        #expect(create(c) == invalid(.mainModeType))
    }

    @Test func invalidMainSubCombinations() {
        for (main, sub) in [(CSMode.mode1, CSMode.mode2), (.mode1, .mode3), (.mode2, .mode2), (.mode2, .mode0), (.mode3, .mode1), (.mode3, .mode3)] {
            var c = Self.config
            c.mainMode = main
            c.subMode = sub
            #expect(create(c) == invalid(.subModeType))
        }
    }

    @Test func mainModeStepBounds() {
        var c = Self.config
        c.subMode = .mode1
        c.minMainModeSteps = 1
        #expect(create(c) == invalid(.minMainModeSteps))
        c.minMainModeSteps = 5
        c.maxMainModeSteps = 3
        #expect(create(c) == invalid(.maxMainModeSteps))
        // Without a sub-mode the step counts are ignored.
        c.subMode = nil
        #expect(create(c) == nil)
    }

    @Test func mainModeRepetitionAbove3() {
        var c = Self.config
        c.mainModeRepetition = 4
        #expect(create(c) == invalid(.mainModeRepetition))
    }

    @Test func mode0StepsOutside1to3() {
        var c = Self.config
        c.mode0Steps = 0
        #expect(create(c) == invalid(.mode0Steps))
        c.mode0Steps = 4
        #expect(create(c) == invalid(.mode0Steps))
    }

    @Test func channelMapWithDisallowedChannel() {
        var c = Self.config
        c.channelMap.insert(0)
        #expect(create(c) == invalid(.channelMap))
        c.channelMap = .allowed
        c.channelMap.insert(79)
        #expect(create(c) == invalid(.channelMap))
    }

    @Test func channelMapBelow15ChannelsAtCreateConfig() {
        var c = Self.config
        c.channelMap = .none
        for ch in 2...15 { c.channelMap.insert(ch) }   // 14 channels
        #expect(create(c) == invalid(.channelMap))
        c.channelMap.insert(16)
        #expect(create(c) == nil)
    }

    @Test func channelMapRepetitionZero() {
        var c = Self.config
        c.channelMapRepetition = 0
        #expect(create(c) == invalid(.channelMapRepetition))
    }

    @Test func ch3cJumpOutside2to8() {
        var c = Self.config
        c.channelSelection = .algorithm3c(shape: .hat, jump: 1)
        #expect(create(c) == invalid(.ch3cJump))
        c.channelSelection = .algorithm3c(shape: .x, jump: 9)
        #expect(create(c) == invalid(.ch3cJump))
        c.channelSelection = .algorithm3c(shape: .x, jump: 8)
        #expect(create(c) == nil)
    }

    @Test func procedureParameterRanges() {
        var p = Self.params
        p.maxProcedureLength = 0
        #expect(params(p) == invalid(.maxProcedureLength))
        p = Self.params
        p.minProcedureInterval = 5
        p.maxProcedureInterval = 4
        #expect(params(p) == invalid(.procedureInterval))
        p = Self.params
        p.minSubeventLength = 1249
        #expect(params(p) == invalid(.minSubeventLength))
        p = Self.params
        p.maxSubeventLength = 4_000_001
        #expect(params(p) == invalid(.maxSubeventLength))
        p = Self.params
        p.minSubeventLength = 20_000
        p.maxSubeventLength = 10_000
        #expect(params(p) == invalid(.maxSubeventLength))
        p = Self.params
        p.phy = 5
        #expect(params(p) == invalid(.phy))
        p = Self.params
        p.preferredPeerAntenna = 0
        #expect(params(p) == invalid(.preferredPeerAntenna))
        p.preferredPeerAntenna = 0x10
        #expect(params(p) == invalid(.preferredPeerAntenna))
        p = Self.params
        p.snrControlInitiator = 5
        #expect(params(p) == invalid(.snrControlInitiator))
        p = Self.params
        p.snrControlReflector = 7
        #expect(params(p) == invalid(.snrControlReflector))
    }

    // MARK: Unsupported (0x11 local / 0x1A remote)

    @Test func roleNotSupported() {
        var l = Self.local
        l.roles = [.initiator]
        #expect(create(Self.config, local: l) == unsupported(.role))
        var r = Self.remote
        r.roles = [.reflector]
        #expect(create(Self.config, remote: r) == unsupportedRemote(.role))
    }

    @Test func mode3NotSupported() {
        var c = Self.config
        c.mainMode = .mode3
        var l = Self.local
        l.optionalModes = []
        #expect(create(c, local: l) == unsupported(.mainModeType))
        var r = Self.remote
        r.optionalModes = []
        #expect(create(c, remote: r) == unsupportedRemote(.mainModeType))
        c.mainMode = .mode2
        c.subMode = .mode3
        #expect(create(c, remote: r) == unsupportedRemote(.subModeType))
    }

    @Test func rttTypeNotSupported() {
        var c = Self.config
        c.mainMode = .mode1
        c.rttType = .sounding32
        var r = Self.remote
        r.rttSoundingN = 0
        #expect(create(c, remote: r) == unsupportedRemote(.rttType))
        var l = Self.local
        l.rttSoundingN = 0
        #expect(create(c, local: l) == unsupported(.rttType))
        // Mode 2 alone uses no RTT: the RTT type is not checked.
        c.mainMode = .mode2
        #expect(create(c, remote: r) == nil)
    }

    @Test func syncPHYNotSupported() {
        var c = Self.config
        c.csSyncPHY = .le2M
        var l = Self.local
        l.syncPHYs = []
        #expect(create(c, local: l) == unsupported(.csSyncPHY))
        var r = Self.remote
        r.syncPHYs = [.le2M2BT]
        #expect(create(c, remote: r) == unsupportedRemote(.csSyncPHY))
        c.csSyncPHY = .le1M
        #expect(create(c, local: l, remote: r) == nil)
    }

    @Test func channelSelection3cNotSupported() {
        var c = Self.config
        c.channelSelection = .algorithm3c(shape: .hat, jump: 3)
        var l = Self.local
        l.subfeatures.remove(.channelSelection3c)
        #expect(create(c, local: l) == unsupported(.channelSelectionType))
        var r = Self.remote
        r.subfeatures.remove(.channelSelection3c)
        #expect(create(c, remote: r) == unsupportedRemote(.channelSelectionType))
    }

    @Test func inlinePCTNotSupportedByReflector() {
        // Local reflector without IPT.
        var l = Self.local
        l.subfeatures.remove(.inlinePCTReflector)
        #expect(create(Self.config, local: l) == unsupported(.csEnhancements1))
        // Local initiator, remote reflector without IPT; the initiator needs no IPT bit.
        var c = Self.config
        c.role = .initiator
        var r = Self.remote
        r.subfeatures.remove(.inlinePCTReflector)
        var i = Self.local
        i.subfeatures.remove(.inlinePCTReflector)
        #expect(create(c, local: i, remote: r) == unsupportedRemote(.csEnhancements1))
        #expect(create(c, local: i, remote: Self.remote) == nil)
        // Without IPT requested nothing is checked.
        c.inlinePCT = false
        #expect(create(c, local: i, remote: r) == nil)
    }

    @Test func tooManyAntennaPathsForACI() {
        var p = Self.params
        // ACI 6 = 1:4; the local reflector has 2 antennas.
        p.antennaConfiguration = AntennaConfiguration(index: 6)!
        #expect(params(p) == unsupported(.toneAntennaConfigSelection))
        // ACI 3 = 4:1 is fine for a 4-antenna initiator …
        p.antennaConfiguration = AntennaConfiguration(index: 3)!
        #expect(params(p) == nil)
        // … but not for a 2-antenna one.
        var r = Self.remote
        r.numAntennas = 2
        #expect(params(p, remote: r) == unsupportedRemote(.toneAntennaConfigSelection))
        // ACI 7 (2:2, N_AP 4) exceeds a local Max_Antenna_Paths of 2.
        p.antennaConfiguration = AntennaConfiguration(index: 7)!
        var l = Self.local
        l.maxAntennaPaths = 2
        #expect(params(p, local: l) == unsupported(.toneAntennaConfigSelection))
        var r2 = Self.remote
        r2.maxAntennaPaths = 3
        #expect(params(p, remote: r2) == unsupportedRemote(.toneAntennaConfigSelection))
    }

    @Test func snrControlNotSupported() {
        var p = Self.params
        p.snrControlInitiator = 1    // remote initiator supports only index 0 (18 dB)
        #expect(params(p) == unsupportedRemote(.snrControlInitiator))
        p.snrControlInitiator = 0
        #expect(params(p) == nil)
        p.snrControlReflector = 0    // the local reflector has no TX SNR capability
        #expect(params(p) == unsupported(.snrControlReflector))
    }

    @Test func subeventTooShortForMode0AndOneMainStep() {
        var p = Self.params
        p.minSubeventLength = 1250
        p.maxSubeventLength = 1250
        // Mandatory timing: 3 × 483 (mode 0) + 465 (mode 2: 2[40·2 + 5] + 145 + 150) = 1914 µs > 1250 µs.
        let c = Self.config
        #expect(V.minimumSubeventDuration(c, timing: CSTiming(), antennaPaths: 1) == 3 * 483 + 465)
        #expect(params(p) == unsupported(.maxSubeventLength))
        // With the fastest common timing it fits: 3 × 213 + 85 = 724 µs.
        let fast = CSTiming(tIP1: 10, tIP2: 20, tFCS: 15, tPM: 10, tSW: 0)
        #expect(V.minimumSubeventDuration(c, timing: fast, antennaPaths: 1) == 724)
        if case .failure = V.checkProcedureParameters(p, configuration: c, timing: fast, local: Self.local, remote: Self.remote) {
            Issue.record("fast timing should fit")
        }
    }

    @Test func procedureTooShortForOneSubevent() {
        var p = Self.params
        p.maxProcedureLength = 1           // 625 µs
        p.minSubeventLength = 1250
        #expect(params(p) == unsupported(.maxProcedureLength))
        p.maxProcedureLength = 4           // 2500 µs ≥ max(1914, 1250)
        #expect(params(p) == nil)
    }

    // MARK: Insufficient Channels (0x48)

    @Test func classificationLeavesFewerThan15Channels() {
        var classification = ChannelMap.none
        for ch in 2...11 { classification.insert(ch) }
        let result = V.validate(configuration: Self.config, parameters: Self.params, local: Self.local,
                                remote: Self.remote, channelClassification: classification)
        guard case .failure(let r) = result else { Issue.record("expected failure"); return }
        #expect(r == ConfigurationRejection(.insufficientChannels, .channelClassification))
        #expect(r.status.rawValue == 0x48)
    }

    // MARK: Received configurations

    @Test func receivedTimesMustBeSupported() {
        var c = Self.config
        c.inlinePCT = false
        c.timing = CSTiming(tIP1: 145, tIP2: 145, tFCS: 100, tPM: 40)
        var r = Self.remote
        r.tFCSTimes.remove(100)
        #expect(rejection(V.checkReceivedConfig(c, local: Self.local, remote: r)) == unsupportedRemote(.tFCSTime))
        var l = Self.local
        l.tPMTimes = .mandatory(.tPM)
        c.timing.tPM = 20
        #expect(rejection(V.checkReceivedConfig(c, local: l, remote: Self.remote)) == unsupported(.tPMTime))
        // Under IPT the local reflector's T_IP2 must come from its IPT list (0x7E: no 10 µs).
        c.inlinePCT = true
        c.timing = CSTiming(tIP1: 145, tIP2: 10, tFCS: 150, tPM: 40)
        #expect(rejection(V.checkReceivedConfig(c, local: Self.local, remote: Self.remote)) == unsupported(.tIP2Time))
        c.timing.tIP2 = 20
        #expect(rejection(V.checkReceivedConfig(c, local: Self.local, remote: Self.remote)) == nil)
        c.timing.tIP1 = 11
        #expect(rejection(V.checkReceivedConfig(c, local: Self.local, remote: Self.remote)) == unsupported(.tIP1Time))
    }

    func rejection(_ r: Result<CSTiming, ConfigurationRejection>) -> ConfigurationRejection? {
        if case .failure(let e) = r { return e }
        return nil
    }

    @Test func statusCodes() {
        #expect(HCIStatus.unsupportedFeatureOrParameterValue.rawValue == 0x11)
        #expect(HCIStatus.invalidHCICommandParameters.rawValue == 0x12)
        #expect(HCIStatus.unsupportedRemoteFeature.rawValue == 0x1A)
    }
}
