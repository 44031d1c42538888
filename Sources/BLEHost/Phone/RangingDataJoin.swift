import ReflectorFirmware

/// The join of the initiator's own results with the reflector's step data from its Ranging
/// Service, by Ranging_Counter (the procedure counter's low 12 bits, RAS 1.0 §3.2.1.1):
/// whichever comes first waits for the other. Without inline PCT a phone needs both sides'
/// PCTs for each step; the reflector's come over GATT, segmented, before or after the
/// controller's last subevent. A few unanswered procedures are kept, as a phone's buffer would.
public struct RangingDataJoin: Sendable {
    /// A procedure with the reflector's steps, in the order its ranging data lists them.
    public typealias Joined = (results: ProcedureResults, reflectorSteps: [StepData?])

    /// How many of the initiator's procedures may wait for their ranging data.
    public static let capacity = 8

    private var segments = RASReassembler()
    /// The initiator's procedures waiting for ranging data, oldest first.
    private var waiting: [(counter: UInt16, results: ProcedureResults)] = []
    /// Ranging data waiting for the initiator's procedure.
    private var early: [UInt16: RangingData] = [:]

    public init() {}

    /// The procedures waiting for the reflector's data (their procedure counters, ascending).
    public var waitingCounters: [UInt16] { waiting.map(\.results.procedureCounter).sorted() }

    /// The initiator's whole procedure: joined if its ranging data came first, else it waits.
    public mutating func procedure(_ p: ProcedureResults) -> Joined? {
        let counter = p.procedureCounter & 0x0FFF
        // Ranging data of earlier procedures whose results never came: procedures run in
        // order, so they will not now; kept, it would join the procedure 4,096 later.
        early = early.filter { !Self.precedes($0.key, counter) }
        if let data = early.removeValue(forKey: counter) { return Self.join(p, data) }
        waiting.removeAll { $0.counter == counter }
        waiting.append((counter, p))
        if waiting.count > Self.capacity { waiting.removeFirst() }
        return nil
    }

    /// One segment of the reflector's Real-time or On-demand Ranging Data: the joined procedure
    /// when it completes a body whose procedure came first. A lost segment loses that
    /// procedure only; a body that does not decode for `antennaPaths` is dropped.
    public mutating func segment(_ bytes: some Collection<UInt8>, antennaPaths: Int) -> Joined? {
        guard let body = try? segments.add(bytes),
              let data = try? RangingData.decode(body, senderRole: .reflector, antennaPaths: antennaPaths) else { return nil }
        let counter = data.header.rangingCounter
        if let i = waiting.firstIndex(where: { $0.counter == counter }) { return Self.join(waiting.remove(at: i).results, data) }
        early[counter] = data
        return nil
    }

    /// Whether ranging counter `a` comes before `b` (within half the 12-bit circle).
    static func precedes(_ a: UInt16, _ b: UInt16) -> Bool {
        let d = (b &- a) & 0x0FFF
        return d != 0 && d < 0x0800
    }

    private static func join(_ p: ProcedureResults, _ data: RangingData) -> Joined {
        (p, data.subevents.flatMap { $0.steps.map(\.data) })
    }
}
