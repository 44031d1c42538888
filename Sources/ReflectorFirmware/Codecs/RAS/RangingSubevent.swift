import WireFormat

/// One subevent in RAS ranging data (RAS 1.0 §3.2.1.2): a `RASSubeventHeader` and its
/// Num_Steps_Reported steps.
public struct RangingSubevent: Sendable, Equatable {
    public var header: RASSubeventHeader
    public var steps: [RangingStep]

    /// `header.numStepsReported` is set from `steps.count` (at most 255; a subevent has ≤ 160).
    public init(header: RASSubeventHeader, steps: [RangingStep]) {
        var h = header
        h.numStepsReported = UInt8(truncatingIfNeeded: steps.count)
        self.header = h
        self.steps = steps
    }

    /// The RAS form of an HCI subevent result. An aborted subevent reports no steps (as the
    /// nRF server does).
    public init(_ result: LECSSubeventResult) {
        let aborted = result.subeventDoneStatus == .aborted
        self.init(
            header: RASSubeventHeader(
                startACLConnectionEvent: result.startACLConnectionEventCounter,
                frequencyCompensation: result.frequencyCompensation, rangingDoneStatus: result.procedureDoneStatus,
                subeventDoneStatus: result.subeventDoneStatus, abortReasons: result.abortReasons,
                referencePowerLevel: result.referencePowerLevel, numStepsReported: 0),
            steps: aborted ? [] : result.steps.map { RangingStep($0.data) })
    }

    public var encodedLength: Int {
        var n = RASSubeventHeader.encodedLength
        for s in steps { n += s.encodedLength }
        return n
    }

    public func encode(into w: inout ByteWriter) {
        header.encode(into: &w)
        for s in steps { s.encode(into: &w) }
    }

    public static func decode(context: StepDataContext, from r: inout ByteReader) throws(DecodeError) -> RangingSubevent {
        let h = try RASSubeventHeader.decode(from: &r)
        var steps: [RangingStep] = []
        steps.reserveCapacity(Swift.min(Int(h.numStepsReported), r.remaining))
        for _ in 0..<Int(h.numStepsReported) { steps.append(try RangingStep.decode(context: context, from: &r)) }
        return RangingSubevent(header: h, steps: steps)
    }
}
