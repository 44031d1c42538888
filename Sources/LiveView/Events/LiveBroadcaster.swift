import Foundation

/// Hands each published event to every client's queue, from the thread that ranges, without
/// waiting on any client: under one lock it frames nothing and copies nothing (an event's
/// octets are shared), it appends to the history and to each queue (a queue full by count or
/// by octets drops its oldest events and counts them), and it wakes the server's loop at most
/// once per batch.
/// The server's thread takes the queues when it writes.
public final class LiveBroadcaster: @unchecked Sendable {
    /// A client's pending events and what it lost.
    struct Client {
        let id: Int
        var queue: BoundedQueue<LiveEvent>
        /// The octets of the queued events' frames.
        var bytes = 0
        /// Events dropped since the last `take`.
        var dropped = 0
    }

    /// What the tests and the command can read about the stream.
    public struct Statistics: Equatable, Sendable {
        /// Clients on the event stream now.
        public var clients = 0
        /// Events published.
        public var published = 0
        /// Events dropped from all clients' queues, in all.
        public var dropped = 0
        /// The longest any client's queue has been.
        public var longestQueue = 0
        /// The most octets any client's queue has held.
        public var largestQueue = 0
    }

    public let queueCapacity: Int
    /// Octets a client's queue may hold (events of plots are large): the oldest go first.
    public let queueBytes: Int
    private let condition = NSCondition()
    private let wakeup: WakeupPipe
    private var nextID: UInt64 = 1
    private var history: EventHistory
    /// An array, not a dictionary: publishing walks it by index and mutates in place.
    private var clients: [Client] = []
    /// A wakeup is in the pipe and not yet answered by a `take`.
    private var wakePending = false
    private var statistics = Statistics()

    init(queueCapacity: Int, queueBytes: Int, historySizes: [String: Int], wakeup: WakeupPipe) {
        self.queueCapacity = queueCapacity
        self.queueBytes = queueBytes
        history = EventHistory(sizes: historySizes)
        self.wakeup = wakeup
    }

    /// Publishes `data` as an event named `name`; returns its id.
    @discardableResult
    public func publish(_ name: String, _ data: some Collection<UInt8>) -> UInt64 {
        condition.lock()
        let id = nextID
        nextID += 1
        condition.unlock()
        // Framed outside the lock: only the id had to be taken in order.
        let event = LiveEvent(id: id, name: name, data: data)
        condition.lock()
        history.record(event)
        statistics.published += 1
        let size = event.frame.count
        for i in clients.indices {
            // Room by octets first (an event larger than the whole budget still goes in alone).
            while clients[i].bytes + size > queueBytes, let oldest = clients[i].queue.removeFirst() {
                clients[i].bytes -= oldest.frame.count
                clients[i].dropped += 1
                statistics.dropped += 1
            }
            if let oldest = clients[i].queue.append(event) {
                clients[i].bytes -= oldest.frame.count
                clients[i].dropped += 1
                statistics.dropped += 1
            }
            clients[i].bytes += size
            statistics.longestQueue = max(statistics.longestQueue, clients[i].queue.count)
            statistics.largestQueue = max(statistics.largestQueue, clients[i].bytes)
        }
        let wake = !wakePending && !clients.isEmpty
        if wake { wakePending = true }
        condition.unlock()
        if wake { wakeup.wake() }
        return id
    }

    public var current: Statistics {
        condition.lock()
        defer { condition.unlock() }
        var s = statistics
        s.clients = clients.count
        return s
    }

    /// Waits up to `timeout` seconds until `holds` is true of the statistics (tests: a client
    /// joined, left); returns whether it came true.
    public func wait(timeout: Double, until holds: (Statistics) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            var s = statistics
            s.clients = clients.count
            if holds(s) { return true }
            if !condition.wait(until: deadline) { return false }
        }
    }

    /// Registers `client` and returns what it missed: the kept events after `lastID`. Taken
    /// under the lock, so nothing falls between the replay and the queue.
    func join(_ client: Int, after lastID: UInt64?) -> [LiveEvent] {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        clients.append(Client(id: client, queue: BoundedQueue(capacity: queueCapacity)))
        return history.events(after: lastID)
    }

    func leave(_ client: Int) {
        condition.lock()
        clients.removeAll { $0.id == client }
        condition.broadcast()
        condition.unlock()
    }

    /// Clears the pending wakeup (the next publish wakes the loop again).
    func answerWakeup() {
        condition.lock()
        wakePending = false
        condition.unlock()
    }

    /// Takes `client`'s queued events and how many it lost since the last take.
    func take(_ client: Int) -> (events: [LiveEvent], dropped: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard let i = clients.firstIndex(where: { $0.id == client }) else { return ([], 0) }
        let dropped = clients[i].dropped
        clients[i].dropped = 0
        clients[i].bytes = 0
        return (clients[i].queue.removeAll(), dropped)
    }
}
