/// The Create Config / Set Procedure Parameters / Procedure Enable parameter a check found
/// wrong (Core 6.0 Vol 4 Part E §7.8.137, §7.8.140, §7.8.141), so a tool can say which field
/// to fix besides the HCI status.
public enum ConfigurationParameter: UInt8, Sendable, Equatable, CaseIterable {
    case configID
    case mainModeType
    case subModeType
    case minMainModeSteps
    case maxMainModeSteps
    case mainModeRepetition
    case mode0Steps
    case role
    case rttType
    case csSyncPHY
    case channelMap
    case channelMapRepetition
    case channelSelectionType
    case ch3cJump
    /// CS_Enhancements_1 bit 0 (Inline PCT Transfer request, Core 6.3).
    case csEnhancements1
    case tIP1Time
    case tIP2Time
    case tFCSTime
    case tPMTime
    case maxProcedureLength
    case procedureInterval
    case minSubeventLength
    case maxSubeventLength
    case toneAntennaConfigSelection
    case phy
    case preferredPeerAntenna
    case snrControlInitiator
    case snrControlReflector
    /// The host's channel classification (Set Channel Classification) leaves too few channels.
    case channelClassification

    /// The HCI parameter name, for printing.
    public var name: StaticString {
        switch self {
        case .configID: return "Config_ID"
        case .mainModeType: return "Main_Mode_Type"
        case .subModeType: return "Sub_Mode_Type"
        case .minMainModeSteps: return "Min_Main_Mode_Steps"
        case .maxMainModeSteps: return "Max_Main_Mode_Steps"
        case .mainModeRepetition: return "Main_Mode_Repetition"
        case .mode0Steps: return "Mode_0_Steps"
        case .role: return "Role"
        case .rttType: return "RTT_Type"
        case .csSyncPHY: return "CS_SYNC_PHY"
        case .channelMap: return "Channel_Map"
        case .channelMapRepetition: return "Channel_Map_Repetition"
        case .channelSelectionType: return "Channel_Selection_Type"
        case .ch3cJump: return "Ch3c_Jump"
        case .csEnhancements1: return "CS_Enhancements_1"
        case .tIP1Time: return "T_IP1_Time"
        case .tIP2Time: return "T_IP2_Time"
        case .tFCSTime: return "T_FCS_Time"
        case .tPMTime: return "T_PM_Time"
        case .maxProcedureLength: return "Max_Procedure_Len"
        case .procedureInterval: return "Min/Max_Procedure_Interval"
        case .minSubeventLength: return "Min_Subevent_Len"
        case .maxSubeventLength: return "Max_Subevent_Len"
        case .toneAntennaConfigSelection: return "Tone_Antenna_Config_Selection"
        case .phy: return "PHY"
        case .preferredPeerAntenna: return "Preferred_Peer_Antenna"
        case .snrControlInitiator: return "SNR_Control_Initiator"
        case .snrControlReflector: return "SNR_Control_Reflector"
        case .channelClassification: return "Channel_Classification"
        }
    }
}
