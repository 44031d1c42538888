/// The reflector's side of one connection's CS procedures, as its host sees them (Core 6.0 Vol
/// 4 Part E §7.7.65.42 Config Complete, §7.7.65.43 Procedure Enable Complete, §7.7.65.44–45
/// Subevent Result and Continue): the configuration the peer created, whether procedures run,
/// and each procedure reassembled; when inline PCT transfer is off, its results cut into the
/// segments of the Ranging Service's ranging data (RAS 1.0 §3.2), which the phone needs. With
/// inline PCT the phone needs nothing from it, as Nordic's IPT reflector shows, unless the
/// procedures time round trips (`CSConfiguration.needsReflectorResults`).
///
/// Both of this project's reflector hosts use it: the firmware's own (`ReflectorHost`) and
/// BLEHost's `AccessoryHost`.
public struct ReflectorProcedures: Sendable {
    public enum Output: Sendable, Equatable {
        /// The peer created a configuration on this side.
        case configured(CSConfiguration)
        /// Procedures were enabled or disabled.
        case procedures(enabled: Bool)
        /// What the reflector measured in one procedure (every procedure, for PCT reporting).
        case measured(ProcedureResults)
        /// Notifications of Real-time Ranging Data for one procedure, in order.
        case rangingData(counter: UInt16, segments: [[UInt8]])
        /// `count` procedures from counter `first` the controller reported nothing of (the
        /// next one's counter skipped them): nothing was measured or sent for them.
        case missed(first: UInt16, count: Int)
    }

    /// The negotiated ATT_MTU, which bounds each RAS segment.
    public var attMTU: Int
    public private(set) var configuration: CSConfiguration?
    public private(set) var selectedTxPower: Int8 = 0
    private var assembler = ProcedureAssembler(role: .reflector)
    private var sequence = ProcedureSequence()
    private var segmentCounter: UInt8 = 0

    public init(attMTU: Int = 247) { self.attMTU = attMTU }

    /// LE CS Set Default Settings allowing the reflector role only (§7.8.137), with the
    /// CS_SYNC antenna (1...4) and the most transmit power the controller may use.
    public static func defaultSettings(connectionHandle: UInt16, syncAntenna: UInt8) -> LECSSetDefaultSettings {
        LECSSetDefaultSettings(connectionHandle: connectionHandle, initiatorEnabled: false, reflectorEnabled: true,
                               csSyncAntennaSelection: syncAntenna, maxTxPower: 20)
    }

    public mutating func configComplete(_ e: LECSConfigComplete) -> [Output] {
        guard e.status == .success else { return [] }
        configuration = e.action == .created ? e.configuration : nil
        return configuration.map { [.configured($0)] } ?? []
    }

    public mutating func procedureEnableComplete(_ e: LECSProcedureEnableComplete) -> [Output] {
        guard e.status == .success else { return [] }
        if e.enabled {
            selectedTxPower = e.selectedTxPower
            sequence.restart()
        }
        return [.procedures(enabled: e.enabled)]
    }

    /// One LE CS Subevent Result or Continue event; a malformed or out-of-order one loses its
    /// procedure only.
    public mutating func subeventResult(_ event: HCIPacket) -> [Output] {
        guard let procedure = try? assembler.add(event) else { return [] }
        let missed: [Output] = sequence.reported(procedure.procedureCounter).map { [.missed(first: $0.first, count: $0.count)] } ?? []
        if configuration?.needsReflectorResults == false { return missed + [.measured(procedure)] }
        let body = RangingData(selectedTxPower: selectedTxPower, results: procedure.subevents).encode()
        let segments = RASSegmenter.segments(of: body, attMTU: attMTU, firstCounter: segmentCounter)
        segmentCounter = UInt8(truncatingIfNeeded: Int(segmentCounter) + segments.count) & 0x3F
        return missed + [.measured(procedure), .rangingData(counter: procedure.procedureCounter & 0x0FFF, segments: segments)]
    }

    /// The connection went down: its configuration and any half-assembled procedure went with
    /// it (its counter is returned: that procedure is lost).
    @discardableResult
    public mutating func reset() -> UInt16? {
        let lost = assembler.pendingCounter
        configuration = nil
        assembler = ProcedureAssembler(role: .reflector)
        sequence.restart()
        return lost
    }
}
