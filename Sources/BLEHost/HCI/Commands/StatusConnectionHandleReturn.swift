import ReflectorFirmware

/// The return parameters `Status 1 | Connection_Handle 2` in Command Complete (Core 6.0 Vol 4
/// Part E §7.7.14) of LE Long Term Key Request Reply and Negative Reply (§7.8.25, §7.8.26), LE
/// Set Data Length (§7.8.33) and others. A controller returns the handle whatever the status.
public struct StatusConnectionHandleReturn: StatusAndConnectionHandle {
    public var status: HCIStatus
    public var connectionHandle: UInt16

    public init(status: HCIStatus = .success, connectionHandle: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
    }
}
