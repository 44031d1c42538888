/// Splitting one subevent's results into LE CS Subevent Result plus Continue events so that no
/// event's parameters (subevent code included) exceed 255 octets, the HCI event length limit
/// (Core 6.0 Vol 4 Part E §5.4.4, §7.7.65.44–45).
///
/// Every event but the last reports Procedure_Done_Status and Subevent_Done_Status "partial"
/// (0x1) and no abort reason; the last carries this value's statuses and abort reasons.
/// Steps stay in order and each event takes as many as fit.
extension LECSSubeventResult {
    /// `maxParameterLength` is the HCI event parameter limit (255), including the subevent code.
    public func splitIntoEvents(maxParameterLength: Int = HCIPacketIndicator.event.maximumPayloadLength) -> [SubeventResultEvent] {
        let firstCapacity = maxParameterLength - 1 - Self.headerLength
        let nextCapacity = maxParameterLength - 1 - LECSSubeventResultContinue.headerLength
        var chunks: [[SubeventStep]] = [[]]
        var used = 0
        var capacity = firstCapacity
        for step in steps {
            let n = step.encodedLength
            if used + n > capacity && !chunks[chunks.count - 1].isEmpty {
                chunks.append([])
                used = 0
                capacity = nextCapacity
            }
            chunks[chunks.count - 1].append(step)
            used += n
        }
        var events: [SubeventResultEvent] = []
        events.reserveCapacity(chunks.count)
        for (k, chunk) in chunks.enumerated() {
            let last = k == chunks.count - 1
            let pds: ProcedureDoneStatus = last ? procedureDoneStatus : .partial
            let sds: SubeventDoneStatus = last ? subeventDoneStatus : .partial
            let abort: AbortReasons = last ? abortReasons : .none
            let report = SubeventStepsReport(procedureDoneStatus: pds, subeventDoneStatus: sds, abortReasons: abort,
                                             numAntennaPaths: numAntennaPaths, steps: chunk)
            if k == 0 {
                var first = self
                first.stepsReport = report
                events.append(.result(first))
            } else {
                events.append(.continuation(LECSSubeventResultContinue(connectionHandle: connectionHandle, configID: configID, stepsReport: report)))
            }
        }
        return events
    }
}
