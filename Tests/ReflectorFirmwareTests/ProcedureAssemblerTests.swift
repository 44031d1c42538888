import ReflectorFirmware
import TestSupport
import Testing

/// The host's procedure assembly under `StreamDecoderVerifier`: the LE CS Subevent Result and
/// Continue events of a procedure, fed one at a time, in every split into runs, back to back
/// with other procedures and in random runs, give the procedure at its last event and nothing
/// before, and the assembler holds exactly the events it took of the procedure in progress.
@Suite struct ProcedureAssemblerTests {
    /// A procedure of two subevents of 80 steps each, the first "partial" for the procedure.
    static var twoSubevents: ProcedureResults {
        let big = SubeventResultTests.bigSubevent
        var first = big, second = big
        first.steps = Array(big.steps.prefix(80))
        first.procedureDoneStatus = .partial
        second.steps = Array(big.steps.suffix(80))
        second.startACLConnectionEventCounter &+= 1
        return ProcedureResults(procedureCounter: big.procedureCounter, configID: big.configID, antennaPaths: 4, subevents: [first, second])
    }

    static var procedures: [ProcedureResults] {
        let one = SubeventResultTests.result
        var aborted = SubeventResultTests.result
        aborted.procedureCounter = 6
        aborted.procedureDoneStatus = .aborted
        aborted.subeventDoneStatus = .aborted
        aborted.abortReasons = AbortReasons(procedure: .localOrRemoteRequest, subevent: .noCSSyncReceived)
        return [ProcedureResults(procedureCounter: one.procedureCounter, configID: one.configID, antennaPaths: 1, subevents: [one]),
                twoSubevents,
                ProcedureResults(procedureCounter: 6, configID: aborted.configID, antennaPaths: 1, subevents: [aborted])]
    }

    /// The events a controller sends for a procedure: each subevent in a Result and as many
    /// Continue events as its steps need.
    static func events(_ p: ProcedureResults) -> [HCIPacket] {
        p.subevents.flatMap { $0.splitIntoEvents() }.map(\.packet)
    }

    @Test func everySplitOfTheEventsGivesTheSameProcedures() throws {
        let procedures = Self.procedures
        #expect(Self.events(procedures[1]).count > 4)
        let run = try StreamDecoderVerifier { ProcedureAssembler(role: .reflector) }.verify(
            messages: procedures.map { (Self.events($0), $0) }, partial: { $0 }, endsAtLastElement: true, randomChunkings: 50) { Array($0.elements) }
        #expect(run.runs > 50)
    }

    /// A procedure whose last subevent never came is dropped when the next one starts, and the
    /// held events count starts again.
    @Test func anUnfinishedProcedureIsDroppedByTheNext() throws {
        var a = ProcedureAssembler(role: .reflector)
        let two = Self.events(Self.twoSubevents)
        let firstSubevent = Self.twoSubevents.subevents[0].splitIntoEvents().count
        for e in two.prefix(firstSubevent) { #expect(try a.reassemble(e) == nil) }
        #expect(a.progress == firstSubevent)
        let one = Self.procedures[0]
        #expect(try a.reassemble(Self.events(one)[0]) == one)
        #expect(a.progress == 0)
    }
}
