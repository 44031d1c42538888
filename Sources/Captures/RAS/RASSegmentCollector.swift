import ReflectorFirmware

/// One procedure's ranging-data segments as they arrive (RAS 1.0 §3.2.1.1: a Segmentation
/// Header octet, First_Segment bit 0, Last_Segment bit 1, Segment_Index 6 bits counting mod
/// 64, then the segment's part of the body), kept by position, so that a segment sent again
/// (on demand, after Retrieve Lost Ranging Data Segments) fills its gap instead of breaking the
/// sequence as a stream reassembler would: what is missing, and what came twice, is counted.
struct RASSegmentCollector: Sendable, Equatable {
    /// The most positions one procedure's data may take: a body of the largest size RAS allows
    /// (4 + 32·8 + 256·36 octets) in the smallest segments (ATT_MTU 23: 18 octets), with room.
    static let maximumPositions = 1024
    private var parts: [Int: [UInt8]] = [:]
    private var lastIndex: Int?
    private var newestIndex = 0
    private var sawFirst = false
    /// The first segment's Segment_Index: positions count from it.
    private var firstCounter = 0
    /// Segments that came before any first segment (their procedure's start was lost).
    private(set) var orphans = 0
    /// Segments that came again (the same position twice).
    private(set) var repeated = 0
    /// Segments received, repeats and orphans included.
    private(set) var segmentCount = 0

    var isEmpty: Bool { parts.isEmpty && orphans == 0 }

    /// Adds one segment (with its header octet).
    mutating func add(_ segment: [UInt8]) {
        guard let octet = segment.first else { return }
        segmentCount += 1
        let h = RASSegmentationHeader(octet: octet)
        let index: Int
        if h.isFirst {
            index = 0
            sawFirst = true
            firstCounter = Int(h.counter)
        } else {
            guard sawFirst else {
                orphans += 1
                return
            }
            // A gap with this counter mod 64 (a segment sent again), else the position nearest
            // after the newest among those with this counter mod 64.
            let relative = (Int(h.counter) - firstCounter + 64) % 64
            let end = lastIndex ?? newestIndex
            if let gap = (0...end).first(where: { $0 % 64 == relative && parts[$0] == nil }) {
                index = gap
            } else {
                let base = max(0, newestIndex - 32)
                index = base + (relative - base % 64 + 64) % 64
            }
        }
        guard index < Self.maximumPositions else {
            orphans += 1
            return
        }
        if parts[index] != nil { repeated += 1 }
        parts[index] = Array(segment.dropFirst())
        newestIndex = max(newestIndex, index)
        if h.isLast { lastIndex = index }
    }

    /// The positions missing so far (up to the last segment, or the newest when no last came).
    var missing: [Int] {
        guard sawFirst else { return [0] }
        let end = lastIndex ?? newestIndex
        return (0...end).filter { parts[$0] == nil } + (lastIndex == nil ? [end + 1] : [])
    }

    /// The body, when the first, the last and every segment between have come.
    var body: [UInt8]? {
        guard sawFirst, let last = lastIndex, missing.isEmpty else { return nil }
        var out: [UInt8] = []
        for i in 0...last { out += parts[i]! }
        return out
    }

    /// The ranging header's counter and Config_ID (first segment's octets 0–1), when the first segment came.
    var header: (counter: UInt16, configID: UInt8)? {
        guard let first = parts[0], first.count >= 2 else { return nil }
        let v = UInt16(first[0]) | UInt16(first[1]) << 8
        return (v & 0x0FFF, UInt8(v >> 12))
    }
}
