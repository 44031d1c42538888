import WireFormat

/// Joins an LE CS Subevent Result and its following Subevent Result Continue events back into
/// one subevent (Core 6.0 Vol 4 Part E §7.7.65.44–45): the header of the first event, the steps
/// of all, and the done statuses and abort reasons of the last. A subevent is complete when an
/// event's Subevent_Done_Status is not "partial".
public struct SubeventResultReassembler: FragmentReassembler, Sendable {
    /// Steps per subevent are at most 160.
    public static let maxSteps = 160

    public private(set) var pending: LECSSubeventResult?
    /// Subevents dropped because a new Subevent Result arrived before their last Continue event.
    public private(set) var droppedIncompleteSubevents = 0

    public init() {}

    /// Feeds one event; returns the whole subevent when `event` completes it.
    public mutating func add(_ event: SubeventResultEvent) throws(SubeventReassemblyError) -> LECSSubeventResult? {
        switch event {
        case let .result(r):
            if pending != nil { droppedIncompleteSubevents += 1 }
            pending = nil
            if r.steps.count > Self.maxSteps { throw .tooManySteps }
            if r.subeventDoneStatus == .partial {
                pending = r
                return nil
            }
            return r
        case let .continuation(c):
            guard var p = pending else { throw .continuationWithoutResult }
            guard c.connectionHandle == p.connectionHandle, c.configID == p.configID,
                  c.numAntennaPaths == p.numAntennaPaths else {
                pending = nil
                throw .mismatchedContinuation
            }
            if p.steps.count + c.steps.count > Self.maxSteps {
                pending = nil
                throw .tooManySteps
            }
            p.steps.append(contentsOf: c.steps)
            p.procedureDoneStatus = c.procedureDoneStatus
            p.subeventDoneStatus = c.subeventDoneStatus
            p.abortReasons = c.abortReasons
            if c.subeventDoneStatus == .partial {
                pending = p
                return nil
            }
            pending = nil
            return p
        }
    }

    /// The steps of the subevent in progress, nil when none is.
    public var progress: Int? { pending?.steps.count }

    /// `add` as a `FragmentReassembler`.
    public mutating func reassemble(_ fragment: SubeventResultEvent) throws(SubeventReassemblyError) -> LECSSubeventResult? { try add(fragment) }

    /// Drops any subevent in progress.
    public mutating func reset() { pending = nil }
}
