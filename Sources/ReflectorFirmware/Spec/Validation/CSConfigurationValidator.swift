/// Checks a CS configuration and its procedure parameters against both controllers'
/// capabilities, and answers with the HCI status a controller returns (Core 6.0 Vol 4 Part E
/// §7.8.137 Create Config, §7.8.140 Set Procedure Parameters, §7.8.141 Procedure Enable;
/// ranges as Zephyr `cs.h` and NimBLE PR #1765 `ble_ll_cs_verify_config` state them).
///
/// Status choices:
/// - A value outside its HCI range, or an invalid combination → Invalid HCI Command
///   Parameters (0x12). This includes a Create Config channel map with disallowed channels
///   or fewer than 15 channels (NimBLE folds both into 0x12 at Create Config).
/// - A valid value the **local** controller cannot do → Unsupported Feature or Parameter
///   Value (0x11); one the **remote** cannot do → Unsupported Remote Feature (0x1A). The
///   local side is checked first.
/// - Procedure Enable when the configuration's map filtered by the host's channel
///   classification leaves fewer than 15 channels → Insufficient Channels (0x48).
/// - Project decision (no public source): when Max_Subevent_Len cannot hold the Mode_0_Steps
///   mode-0 steps plus one main-mode step at the selected timing, or Max_Procedure_Len cannot
///   hold one subevent (the larger of that minimum and Min_Subevent_Len), the controller
///   answers 0x11: the values are in range but not usable with the negotiated capabilities.
///
/// All functions are pure; they return the selected timing on success.
public enum CSConfigurationValidator {
    /// Checks `c` as LE CS Create Config would, with `c.role` the local role, and selects the
    /// timing (`CSTiming.selected`; T_SW still 0). `c.timing` is ignored.
    public static func checkCreateConfig(
        _ c: CSConfiguration, local: CSCapabilities, remote: CSCapabilities
    ) -> Result<CSTiming, ConfigurationRejection> {
        if let r = rangeRejection(c) { return .failure(r) }
        if let r = capabilityRejection(c, local: local, remote: remote) { return .failure(r) }
        return .success(CSTiming.selected(local: local, remote: remote, localRole: c.role, inlinePCT: c.inlinePCT))
    }

    /// Checks a configuration whose times were already chosen (e.g. received in
    /// LL_CS_CONFIG_REQ): same checks as `checkCreateConfig`, then every time of `c.timing`
    /// must be one both sides support (T_IP2 from the reflector's IPT list under IPT).
    public static func checkReceivedConfig(
        _ c: CSConfiguration, local: CSCapabilities, remote: CSCapabilities
    ) -> Result<CSTiming, ConfigurationRejection> {
        if let r = rangeRejection(c) { return .failure(r) }
        if let r = capabilityRejection(c, local: local, remote: remote) { return .failure(r) }
        let t = c.timing
        let localIsReflector = c.role == .reflector
        let localIP2 = c.inlinePCT && localIsReflector ? local.tIP2IPTTimes : local.tIP2Times
        let remoteIP2 = c.inlinePCT && !localIsReflector ? remote.tIP2IPTTimes : remote.tIP2Times
        if let r = require(local.tIP1Times.contains(t.tIP1), remote.tIP1Times.contains(t.tIP1), .tIP1Time) { return .failure(r) }
        if let r = require(localIP2.contains(t.tIP2), remoteIP2.contains(t.tIP2), .tIP2Time) { return .failure(r) }
        if let r = require(local.tFCSTimes.contains(t.tFCS), remote.tFCSTimes.contains(t.tFCS), .tFCSTime) { return .failure(r) }
        if let r = require(local.tPMTimes.contains(t.tPM), remote.tPMTimes.contains(t.tPM), .tPMTime) { return .failure(r) }
        return .success(CSTiming(tIP1: t.tIP1, tIP2: t.tIP2, tFCS: t.tFCS, tPM: t.tPM, tSW: 0))
    }

    /// Checks `p` as LE CS Set Procedure Parameters would for configuration `c` whose times
    /// are `timing`, and returns `timing` with T_SW set for the chosen ACI.
    public static func checkProcedureParameters(
        _ p: ProcedureParameters, configuration c: CSConfiguration, timing: CSTiming,
        local: CSCapabilities, remote: CSCapabilities
    ) -> Result<CSTiming, ConfigurationRejection> {
        let bad = HCIStatus.invalidHCICommandParameters
        if p.maxProcedureLength == 0 { return .failure(.init(bad, .maxProcedureLength)) }
        if p.minProcedureInterval == 0 || p.maxProcedureInterval == 0 || p.minProcedureInterval > p.maxProcedureInterval {
            return .failure(.init(bad, .procedureInterval))
        }
        if !subeventLengthRange.contains(p.minSubeventLength) { return .failure(.init(bad, .minSubeventLength)) }
        if !subeventLengthRange.contains(p.maxSubeventLength) { return .failure(.init(bad, .maxSubeventLength)) }
        if p.minSubeventLength > p.maxSubeventLength { return .failure(.init(bad, .maxSubeventLength)) }
        if p.phy < 1 || p.phy > 4 { return .failure(.init(bad, .phy)) }
        if p.preferredPeerAntenna == 0 || p.preferredPeerAntenna > 0x0F { return .failure(.init(bad, .preferredPeerAntenna)) }
        if let s = p.snrControlInitiator, s > 4 { return .failure(.init(bad, .snrControlInitiator)) }
        if let s = p.snrControlReflector, s > 4 { return .failure(.init(bad, .snrControlReflector)) }

        let localIsInitiator = c.role == .initiator
        let initiator = localIsInitiator ? local : remote
        let reflector = localIsInitiator ? remote : local
        let aci = p.antennaConfiguration
        // Antennas each side must drive, and the paths both must handle.
        let iOK = aci.initiatorAntennas <= Int(initiator.numAntennas)
        let rOK = aci.reflectorAntennas <= Int(reflector.numAntennas)
        let localAntennas = localIsInitiator ? iOK : rOK
        let remoteAntennas = localIsInitiator ? rOK : iOK
        if let r = require(
            localAntennas && aci.antennaPaths <= Int(local.maxAntennaPaths),
            remoteAntennas && aci.antennaPaths <= Int(remote.maxAntennaPaths),
            .toneAntennaConfigSelection
        ) { return .failure(r) }
        if let s = p.snrControlInitiator {
            let ok = initiator.txSNR.supports(index: s)
            if let r = require(localIsInitiator ? ok : true, localIsInitiator ? true : ok, .snrControlInitiator) { return .failure(r) }
        }
        if let s = p.snrControlReflector {
            let ok = reflector.txSNR.supports(index: s)
            if let r = require(localIsInitiator ? true : ok, localIsInitiator ? ok : true, .snrControlReflector) { return .failure(r) }
        }

        var t = timing
        t.tSW = CSTiming.antennaSwitchTime(antennaConfiguration: aci, initiator: initiator, reflector: reflector, inlinePCT: c.inlinePCT)
        let minimum = minimumSubeventDuration(c, timing: t, antennaPaths: aci.antennaPaths)
        let unsupported = HCIStatus.unsupportedFeatureOrParameterValue
        if minimum > p.maxSubeventLength { return .failure(.init(unsupported, .maxSubeventLength)) }
        if p.maxProcedureLengthMicroseconds < max(minimum, p.minSubeventLength) {
            return .failure(.init(unsupported, .maxProcedureLength))
        }
        return .success(t)
    }

    /// Everything a controller checks up to LE CS Procedure Enable: Create Config (selecting
    /// the timing), Set Procedure Parameters, and the channel count after the host's
    /// `channelClassification`. Returns the timing the procedures run with.
    public static func validate(
        configuration c: CSConfiguration, parameters p: ProcedureParameters,
        local: CSCapabilities, remote: CSCapabilities, channelClassification: ChannelMap = .allowed
    ) -> Result<CSTiming, ConfigurationRejection> {
        let timing: CSTiming
        switch checkCreateConfig(c, local: local, remote: remote) {
        case .failure(let r): return .failure(r)
        case .success(let t): timing = t
        }
        let withSwitch: CSTiming
        switch checkProcedureParameters(p, configuration: c, timing: timing, local: local, remote: remote) {
        case .failure(let r): return .failure(r)
        case .success(let t): withSwitch = t
        }
        if !FilteredChannels(map: c.channelMap, classification: channelClassification).isSufficient {
            return .failure(.init(.insufficientChannels, .channelClassification))
        }
        return .success(withSwitch)
    }

    /// The shortest possible subevent in µs: Mode_0_Steps mode-0 steps and one main-mode step.
    /// Allocation-free.
    public static func minimumSubeventDuration(_ c: CSConfiguration, timing t: CSTiming, antennaPaths: Int) -> UInt32 {
        let mode0 = t.stepDuration(mode: .mode0, antennaPaths: antennaPaths, phy: c.csSyncPHY, rttType: c.rttType)
        let main = t.stepDuration(mode: c.mainMode, antennaPaths: antennaPaths, phy: c.csSyncPHY, rttType: c.rttType)
        return UInt32(c.mode0Steps) * mode0 + main
    }

    /// Min/Max_Subevent_Len range: 1250 µs ... 4 s.
    public static let subeventLengthRange: ClosedRange<UInt32> = 1250...4_000_000

    // MARK: - Create Config pieces

    /// Values outside their HCI ranges (`CSConfiguration+Ranges.swift`, the ones the decoders
    /// check) and invalid combinations (0x12).
    static func rangeRejection(_ c: CSConfiguration) -> ConfigurationRejection? {
        let bad = HCIStatus.invalidHCICommandParameters
        if !CSConfiguration.configIDRange.contains(c.configID) { return .init(bad, .configID) }
        // Valid main/sub combinations (NimBLE `ble_ll_cs_verify_config`): main 1 → none;
        // main 2 → 1, 3 or none; main 3 → 2 or none. Mode 0 is never a main or sub mode.
        switch c.mainMode {
        case .mode0: return .init(bad, .mainModeType)
        case .mode1: if c.subMode != nil { return .init(bad, .subModeType) }
        case .mode2: if let s = c.subMode, s != .mode1 && s != .mode3 { return .init(bad, .subModeType) }
        case .mode3: if let s = c.subMode, s != .mode2 { return .init(bad, .subModeType) }
        }
        // Min/Max_Main_Mode_Steps (2...255, min ≤ max) matter only with a sub-mode.
        if c.subMode != nil {
            let steps = CSConfiguration.mainModeStepsRange
            if !steps.contains(c.minMainModeSteps) { return .init(bad, .minMainModeSteps) }
            if !steps.contains(c.maxMainModeSteps) || c.minMainModeSteps > c.maxMainModeSteps { return .init(bad, .maxMainModeSteps) }
        }
        if !CSConfiguration.mainModeRepetitionRange.contains(c.mainModeRepetition) { return .init(bad, .mainModeRepetition) }
        if !CSConfiguration.mode0StepsRange.contains(c.mode0Steps) { return .init(bad, .mode0Steps) }
        if c.channelMap.usesDisallowedChannels || c.channelMap.count < FilteredChannels.minimumCount {
            return .init(bad, .channelMap)
        }
        if !CSConfiguration.channelMapRepetitionRange.contains(c.channelMapRepetition) { return .init(bad, .channelMapRepetition) }
        if case .algorithm3c(_, let jump) = c.channelSelection, !CSConfiguration.ch3cJumpRange.contains(jump) { return .init(bad, .ch3cJump) }
        return nil
    }

    /// Valid values one of the controllers cannot do (0x11 local, 0x1A remote).
    static func capabilityRejection(_ c: CSConfiguration, local: CSCapabilities, remote: CSCapabilities) -> ConfigurationRejection? {
        let peerRole: CSRole = c.role == .initiator ? .reflector : .initiator
        if let r = require(local.supports(c.role), remote.supports(peerRole), .role) { return r }
        if c.mainMode == .mode3, let r = require(local.supports(CSMode.mode3), remote.supports(CSMode.mode3), .mainModeType) { return r }
        if c.subMode == .mode3, let r = require(local.supports(CSMode.mode3), remote.supports(CSMode.mode3), .subModeType) { return r }
        let usesRTT = c.mainMode == .mode1 || c.mainMode == .mode3 || c.subMode == .mode1 || c.subMode == .mode3
        if usesRTT, let r = require(local.supports(c.rttType), remote.supports(c.rttType), .rttType) { return r }
        if let r = require(local.supports(c.csSyncPHY), remote.supports(c.csSyncPHY), .csSyncPHY) { return r }
        if case .algorithm3c = c.channelSelection {
            if let r = require(
                local.subfeatures.contains(.channelSelection3c), remote.subfeatures.contains(.channelSelection3c),
                .channelSelectionType
            ) { return r }
        }
        if c.inlinePCT {
            // Only the reflector needs the IPT subfeature.
            let localIsReflector = c.role == .reflector
            if let r = require(
                localIsReflector ? local.supportsInlinePCT : true, localIsReflector ? true : remote.supportsInlinePCT,
                .csEnhancements1
            ) { return r }
        }
        return nil
    }

    /// 0x11 if the local side fails, else 0x1A if the remote side fails, else `nil`.
    @inline(__always)
    static func require(_ localOK: Bool, _ remoteOK: Bool, _ p: ConfigurationParameter) -> ConfigurationRejection? {
        if !localOK { return .init(.unsupportedFeatureOrParameterValue, p) }
        if !remoteOK { return .init(.unsupportedRemoteFeature, p) }
        return nil
    }
}
