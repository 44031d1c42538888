import WireFormat

/// Gathers LE CS Subevent Result and Continue events into whole procedures: subevents are
/// reassembled first, then collected until one says the procedure is done (complete or aborted).
public struct ProcedureAssembler: Sendable {
    private var reassembler = SubeventResultReassembler()
    private var pending: ProcedureResults?
    public let role: CSRole

    public init(role: CSRole) { self.role = role }

    /// The counter of the procedure whose last subevent has not arrived yet, if any.
    public var pendingCounter: UInt16? { pending?.procedureCounter }

    /// Adds one LE Meta event (0x31 or 0x32); returns a procedure when its last subevent arrived.
    public mutating func add(_ event: HCIPacket) throws(ProcedureAssemblyError) -> ProcedureResults? {
        let decoded: SubeventResultEvent
        do { decoded = try SubeventResultEvent.decode(packet: event, role: role) } catch { throw .malformed(error) }
        let whole: LECSSubeventResult?
        do { whole = try reassembler.add(decoded) } catch { throw .outOfOrder(error) }
        guard let subevent = whole else { return nil }
        if var p = pending, p.procedureCounter == subevent.procedureCounter {
            p.subevents.append(subevent)
            pending = p
        } else {
            // A new procedure; one whose last subevent never came is dropped.
            pending = ProcedureResults(procedureCounter: subevent.procedureCounter, configID: subevent.configID,
                                       antennaPaths: Int(subevent.numAntennaPaths), subevents: [subevent])
        }
        guard subevent.procedureDoneStatus != .partial else { return nil }
        defer { pending = nil }
        return pending
    }
}

/// Why a Subevent Result event could not be added to a procedure.
public enum ProcedureAssemblyError: Error, Equatable, Sendable {
    case malformed(DecodeError)
    case outOfOrder(SubeventReassemblyError)
}
