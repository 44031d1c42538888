import ReflectorFirmware

/// One CS procedure found in a capture: the controller's results and what the capture's
/// LE CS Config Complete and Procedure Enable Complete events said about its configuration.
public struct CapturedProcedure: Sendable, Equatable {
    public var results: ProcedureResults
    public var connectionHandle: UInt16
    /// The controller the capture saw it on (`CapturedPacket.adapter`; 0 for btsnoop 1001/1002 and logs).
    public var adapter: UInt16 = 0
    /// The connection's peer, when the capture holds its LE (Enhanced) Connection Complete.
    public var peerAddress: PeerAddress?
    /// Which connection on its handle: how many LE Connection Completes the capture holds for
    /// that handle before the procedure (a controller reuses handles across connections).
    public var link = 0
    /// The role of the controller that reported the results (the Config Complete's Role, or the
    /// role the step data decoded as when the capture has no Config Complete).
    public var role: CSRole
    /// CS_Enhancements_1 bit 0 of the configuration, `nil` when the capture has no Config Complete for it.
    public var inlinePCT: Bool?
    /// N_AP from the Procedure Enable Complete's Tone_Antenna_Config_Selection, else the
    /// Subevent Result's Num_Antenna_Paths.
    public var antennaPaths: Int
    /// Where the procedure ends in its file: the offset of the record whose event completed it
    /// (an HCI capture), or the line its last subevent ends on (a vendor's log).
    public var offset: Int
    /// What kind of file the results were read from.
    public var origin: CaptureOrigin
    /// The distance the vendor's own library gave for this procedure, when its log says
    /// (Silicon Labs' serial log), for `estimate` to print beside ours.
    public var vendorDistance: VendorDistance?

    public init(results: ProcedureResults, connectionHandle: UInt16, role: CSRole, inlinePCT: Bool?, antennaPaths: Int, offset: Int,
                origin: CaptureOrigin = .hci) {
        self.results = results
        self.connectionHandle = connectionHandle
        self.role = role
        self.inlinePCT = inlinePCT
        self.antennaPaths = antennaPaths
        self.offset = offset
        self.origin = origin
    }

    public var procedureCounter: UInt16 { results.procedureCounter }
}
