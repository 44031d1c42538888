@testable import LiveView
import Testing

/// Server-Sent Events framing, the bounded queue and the history a late client is given.
struct LiveEventTests {
    @Test func aFrameIsIdNameAndDataLines() {
        let e = LiveEvent(id: 7, name: "procedure", data: Array("{\"a\": 1}".utf8))
        #expect(String(decoding: e.frame, as: UTF8.self) == "id: 7\nevent: procedure\ndata: {\"a\": 1}\n\n")
        // Line breaks of every kind start a new data line; none can end the message early.
        let multi = LiveEvent(id: 1, name: "x\ny", data: Array("a\nb\r\nc\rd\n\n".utf8))
        #expect(String(decoding: multi.frame, as: UTF8.self) == "id: 1\nevent: xy\ndata: a\ndata: b\ndata: c\ndata: d\ndata: \ndata: \n\n")
    }

    @Test func aFullQueueDropsItsOldest() {
        var q = BoundedQueue<Int>(capacity: 3)
        #expect(q.append(1) == nil && q.append(2) == nil && q.append(3) == nil)
        #expect(q.append(4) == 1)
        #expect(q.append(5) == 2)
        #expect(q.elements == [3, 4, 5] && q.count == 3)
        #expect(q.removeAll() == [3, 4, 5])
        #expect(q.isEmpty)
        for i in 0..<10 { q.append(i) }
        #expect(q.elements == [7, 8, 9])
        #expect(q.removeFirst() == 7 && q.elements == [8, 9] && q.count == 2)
        q.append(10)
        q.append(11)
        #expect(q.elements == [9, 10, 11])
        #expect(q.removeFirst() == 9 && q.removeFirst() == 10 && q.removeFirst() == 11 && q.removeFirst() == nil && q.isEmpty)
    }

    @Test func theHistoryKeepsEachNameToItsSize() {
        var h = EventHistory(sizes: ["setup": 1, "procedure": 3])
        var id: UInt64 = 0
        func event(_ name: String) -> LiveEvent {
            id += 1
            return LiveEvent(id: id, name: name, data: [])
        }
        h.record(event("setup"))
        for _ in 0..<5 { h.record(event("procedure")) }
        h.record(event("other"))
        h.record(event("setup"))
        #expect(h.events(after: nil).map(\.id) == [4, 5, 6, 8])
        #expect(h.events(after: 5).map(\.id) == [6, 8])
    }
}
