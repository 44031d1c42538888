/// A first-in first-out queue of at most `capacity` elements in storage allocated once: an
/// element appended to a full queue pushes the oldest out (a stalled reader loses its oldest
/// updates, never the newest, and never grows the queue).
public struct BoundedQueue<Element: Sendable>: Sendable {
    public let capacity: Int
    private var storage: [Element?]
    private var head = 0
    public private(set) var count = 0

    public init(capacity: Int) {
        precondition(capacity > 0, "a bounded queue holds at least one element")
        self.capacity = capacity
        storage = Array(repeating: nil, count: capacity)
    }

    public var isEmpty: Bool { count == 0 }

    /// Appends `element`; returns the oldest element when it had to make room.
    @discardableResult
    public mutating func append(_ element: Element) -> Element? {
        if count == capacity {
            let oldest = storage[head]
            storage[head] = element
            head = (head + 1) % capacity
            return oldest
        }
        storage[(head + count) % capacity] = element
        count += 1
        return nil
    }

    /// Takes the oldest element out.
    @discardableResult
    public mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        let oldest = storage[head]
        storage[head] = nil
        head = (head + 1) % capacity
        count -= 1
        return oldest
    }

    /// The elements, oldest first.
    public var elements: [Element] { (0..<count).map { storage[(head + $0) % capacity]! } }

    /// Takes every element out, oldest first.
    public mutating func removeAll() -> [Element] {
        let out = elements
        for i in 0..<count { storage[(head + i) % capacity] = nil }
        head = 0
        count = 0
        return out
    }
}
