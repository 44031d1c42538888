/// The value ranges of the configuration fields that LE CS Create Config defines (Core 6.0
/// Vol 4 Part E §7.8.137; the LL carries the same fields, Vol 6 Part B §2.4.2.45), written once
/// for the decoders (`CSConfigurationFields`), `LLCSConfigReq.create` and
/// `CSConfigurationValidator`.
extension CSConfiguration {
    /// Config_ID.
    public static let configIDRange: ClosedRange<UInt8> = 0...3
    /// Min_Main_Mode_Steps and Max_Main_Mode_Steps when there is a sub-mode.
    public static let mainModeStepsRange: ClosedRange<UInt8> = 2...255
    /// Main_Mode_Repetition.
    public static let mainModeRepetitionRange: ClosedRange<UInt8> = 0...3
    /// Mode_0_Steps.
    public static let mode0StepsRange: ClosedRange<UInt8> = 1...3
    /// Channel_Map_Repetition.
    public static let channelMapRepetitionRange: ClosedRange<UInt8> = 1...255
    /// Ch3c_Jump (algorithm #3c only).
    public static let ch3cJumpRange: ClosedRange<UInt8> = 2...8
}
