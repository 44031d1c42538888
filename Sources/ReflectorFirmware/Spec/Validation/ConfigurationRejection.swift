/// Why a controller refuses a CS configuration or its procedure parameters: the HCI status it
/// returns (Core 6.0 Vol 1 Part F) and the parameter at fault.
public struct ConfigurationRejection: Error, Sendable, Equatable {
    public let status: HCIStatus
    public let parameter: ConfigurationParameter

    public init(_ status: HCIStatus, _ parameter: ConfigurationParameter) {
        self.status = status
        self.parameter = parameter
    }
}
