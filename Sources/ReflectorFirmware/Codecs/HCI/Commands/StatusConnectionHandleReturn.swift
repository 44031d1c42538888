import WireFormat

/// The return parameters `Status 1 | Connection_Handle 2` in Command Complete (Core 6.0 Vol 4
/// Part E §7.7.14) of LE Long Term Key Request Reply and Negative Reply (§7.8.25, §7.8.26), LE
/// Set Data Length (§7.8.33), and of the CS commands LE CS Write Cached Remote Supported
/// Capabilities (§7.8.132, and its v2), LE CS Set Default Settings (§7.8.134), LE CS Write Cached
/// Remote FAE Table (§7.8.136) and LE CS Set Procedure Parameters (§7.8.140). A controller
/// returns the handle whatever the status.
public struct StatusConnectionHandleReturn: StatusAndConnectionHandle {
    public var status: HCIStatus
    public var connectionHandle: UInt16

    public init(status: HCIStatus = .success, connectionHandle: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
    }
}
