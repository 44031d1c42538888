import WireFormat

/// Gathers LE CS Subevent Result and Continue events into whole procedures: subevents are
/// reassembled first, then collected until one says the procedure is done (complete or aborted).
public struct ProcedureAssembler: FragmentReassembler, Sendable {
    private var reassembler = SubeventResultReassembler()
    private var pending: ProcedureResults?
    /// Events taken into `pending`'s whole subevents, and into the reassembler's subevent.
    private var eventsInProcedure = 0
    private var eventsInSubevent = 0
    public let role: CSRole

    /// The events taken towards the procedure in progress (0 when none is).
    public var progress: Int { eventsInProcedure + eventsInSubevent }

    /// `add` as a `FragmentReassembler`.
    public mutating func reassemble(_ fragment: HCIPacket) throws(ProcedureAssemblyError) -> ProcedureResults? { try add(fragment) }

    public init(role: CSRole) { self.role = role }

    /// The counter of the procedure whose last subevent has not arrived yet, if any.
    public var pendingCounter: UInt16? { pending?.procedureCounter }

    /// Adds one LE Meta event (0x31 or 0x32); returns a procedure when its last subevent arrived.
    public mutating func add(_ event: HCIPacket) throws(ProcedureAssemblyError) -> ProcedureResults? {
        let decoded: SubeventResultEvent
        do { decoded = try SubeventResultEvent.decode(packet: event, role: role) } catch { throw .malformed(error) }
        let whole: LECSSubeventResult?
        do { whole = try reassembler.add(decoded) } catch {
            if reassembler.pending == nil { eventsInSubevent = 0 }
            throw .outOfOrder(error)
        }
        if case .result = decoded { eventsInSubevent = 1 } else { eventsInSubevent += 1 }
        guard let subevent = whole else { return nil }
        if var p = pending, p.procedureCounter == subevent.procedureCounter {
            p.subevents.append(subevent)
            pending = p
            eventsInProcedure += eventsInSubevent
        } else {
            // A new procedure; one whose last subevent never came is dropped.
            pending = ProcedureResults(procedureCounter: subevent.procedureCounter, configID: subevent.configID,
                                       antennaPaths: Int(subevent.numAntennaPaths), subevents: [subevent])
            eventsInProcedure = eventsInSubevent
        }
        eventsInSubevent = 0
        guard subevent.procedureDoneStatus != .partial else { return nil }
        defer {
            pending = nil
            eventsInProcedure = 0
        }
        return pending
    }
}

/// Why a Subevent Result event could not be added to a procedure.
public enum ProcedureAssemblyError: Error, Equatable, Sendable {
    case malformed(DecodeError)
    case outOfOrder(SubeventReassemblyError)
}
