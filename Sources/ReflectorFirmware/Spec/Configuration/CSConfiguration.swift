/// One CS configuration, as LE CS Create Config sets it up and LE CS Config Complete reports it
/// (Core 6.0 Vol 4 Part E §7.8.137 and §7.7.65.42; Core 6.3 adds CS_Enhancements_1).
/// Both devices hold the same configuration; `role` is this device's.
public struct CSConfiguration: Sendable, Equatable {
    /// Config_ID, 0...3.
    public var configID: UInt8
    /// Main_Mode_Type: mode 1, 2 or 3.
    public var mainMode: CSMode
    /// Sub_Mode_Type: mode 1, 2 or 3, or `nil` for none (0xFF on the wire).
    public var subMode: CSMode?
    /// Min_Main_Mode_Steps and Max_Main_Mode_Steps: main-mode steps before each sub-mode step.
    public var minMainModeSteps: UInt8
    public var maxMainModeSteps: UInt8
    /// Main_Mode_Repetition, 0...3: main-mode steps of the previous subevent replayed at the
    /// start of the next.
    public var mainModeRepetition: UInt8
    /// Mode_0_Steps, 1...3: mode-0 steps opening every subevent.
    public var mode0Steps: UInt8
    public var role: CSRole
    public var rttType: RTTType
    public var csSyncPHY: CSSyncPHY
    public var channelMap: ChannelMap
    /// Channel_Map_Repetition (≥ 1): how many times non-mode-0 steps cycle the filtered map.
    public var channelMapRepetition: UInt8
    public var channelSelection: ChannelSelectionAlgorithm
    /// CS_Enhancements_1 bit 0 (Core 6.3): Inline PCT Transfer requested.
    public var inlinePCT: Bool
    /// The selected interlude, frequency-change and phase-measurement times.
    public var timing: CSTiming

    public init(
        configID: UInt8 = 0, mainMode: CSMode = .mode2, subMode: CSMode? = nil,
        minMainModeSteps: UInt8 = 2, maxMainModeSteps: UInt8 = 5, mainModeRepetition: UInt8 = 0,
        mode0Steps: UInt8 = 3, role: CSRole = .reflector, rttType: RTTType = .accessAddressOnly,
        csSyncPHY: CSSyncPHY = .le1M, channelMap: ChannelMap = .allowed, channelMapRepetition: UInt8 = 1,
        channelSelection: ChannelSelectionAlgorithm = .algorithm3b, inlinePCT: Bool = true,
        timing: CSTiming = CSTiming()
    ) {
        self.configID = configID
        self.mainMode = mainMode
        self.subMode = subMode
        self.minMainModeSteps = minMainModeSteps
        self.maxMainModeSteps = maxMainModeSteps
        self.mainModeRepetition = mainModeRepetition
        self.mode0Steps = mode0Steps
        self.role = role
        self.rttType = rttType
        self.csSyncPHY = csSyncPHY
        self.channelMap = channelMap
        self.channelMapRepetition = channelMapRepetition
        self.channelSelection = channelSelection
        self.inlinePCT = inlinePCT
        self.timing = timing
    }
}

extension CSConfiguration {
    /// Whether the procedures time CS_SYNC round trips (a main or sub mode of 1 or 3).
    public var hasRoundTripSteps: Bool {
        mainMode == .mode1 || mainMode == .mode3 || subMode == .mode1 || subMode == .mode3
    }

    /// Whether the initiator needs the reflector's results (RAS): for the PCT product without
    /// inline PCT transfer, and for round-trip timing in any case: the reflector's ToD_ToA is half
    /// of every round trip, and inline PCT carries phase only.
    public var needsReflectorResults: Bool { !inlinePCT || hasRoundTripSteps }
}
