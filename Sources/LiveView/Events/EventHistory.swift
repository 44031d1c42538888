/// The recent events a client that joins late is given first, kept per event name in a ring
/// of that name's own size: many small distance rows, a few large tone sets, the one last
/// set-up and summary. Names without a size are not kept.
struct EventHistory: Sendable {
    private var rings: [String: BoundedQueue<LiveEvent>]

    /// `sizes`: how many events of each name are kept.
    init(sizes: [String: Int]) {
        rings = sizes.filter { $0.value > 0 }.mapValues { BoundedQueue(capacity: $0) }
    }

    mutating func record(_ event: LiveEvent) { rings[event.name]?.append(event) }

    /// The kept events after `id` (all without one), in the order they were published.
    func events(after id: UInt64?) -> [LiveEvent] {
        rings.values.flatMap(\.elements).filter { $0.id > (id ?? 0) }.sorted { $0.id < $1.id }
    }
}
