/// HCI status and error codes (Core 6.0 Vol 1 Part F §1.3) that Channel Sounding commands and
/// events carry. A controller answers a bad command with one of these, never with a crash.
public enum HCIStatus: UInt8, Sendable, Equatable, CaseIterable {
    case success = 0x00
    case unknownCommand = 0x01
    case unknownConnectionIdentifier = 0x02
    case hardwareFailure = 0x03
    case authenticationFailure = 0x05
    case pinOrKeyMissing = 0x06
    case memoryCapacityExceeded = 0x07
    case connectionTimeout = 0x08
    case commandDisallowed = 0x0C
    case unsupportedFeatureOrParameterValue = 0x11
    case invalidHCICommandParameters = 0x12
    case remoteUserTerminatedConnection = 0x13
    case connectionTerminatedByLocalHost = 0x16
    case unsupportedRemoteFeature = 0x1A
    case invalidLMPOrLLParameters = 0x1E
    case unspecifiedError = 0x1F
    case unsupportedLMPOrLLParameterValue = 0x20
    case llResponseTimeout = 0x22
    case llProcedureCollision = 0x23
    case instantPassed = 0x28
    case differentTransactionCollision = 0x2A
    case insufficientSecurity = 0x2F
    case parameterOutOfMandatoryRange = 0x30
    case controllerBusy = 0x3A
    case unacceptableConnectionParameters = 0x3B
    case limitReached = 0x43
    case operationCancelledByHost = 0x44
    case packetTooLong = 0x45
    case tooLate = 0x46
    case tooEarly = 0x47
    /// Procedure Enable when the filtered channel map leaves fewer than 15 channels (Vol 4 Part E §7.8.141).
    case insufficientChannels = 0x48
}
