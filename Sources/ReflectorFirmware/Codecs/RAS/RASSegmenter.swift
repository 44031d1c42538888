/// Cuts a RAS ranging-data body into notifications (RAS 1.0 §3.2.1.1): each segment is a
/// Segmentation Header octet plus body octets, at most ATT_MTU − 4 octets in all (nRF
/// `rd_segment_send`: "By spec, up to (ATT_MTU-4) octets"), so ATT_MTU − 5 body octets each.
/// Segment counters run 0, 1, … mod 64 from `firstCounter`.
public enum RASSegmenter {
    /// The largest segment (header included) for an ATT_MTU.
    public static func maxSegmentLength(attMTU: Int) -> Int { attMTU - 4 }

    /// The segments of `body`; an empty body gives one first-and-last segment with no data.
    /// An `attMTU` below 23, the LE minimum no peer may negotiate under, is taken as 23.
    public static func segments(of body: [UInt8], attMTU: Int, firstCounter: UInt8 = 0) -> [[UInt8]] {
        let chunk = maxSegmentLength(attMTU: Swift.max(attMTU, 23)) - 1
        var out: [[UInt8]] = []
        out.reserveCapacity(Swift.max(1, (body.count + chunk - 1) / chunk))
        var start = 0
        var counter = firstCounter & 0x3F
        repeat {
            let end = Swift.min(start + chunk, body.count)
            var seg: [UInt8] = []
            seg.reserveCapacity(1 + end - start)
            seg.append(RASSegmentationHeader(isFirst: start == 0, isLast: end == body.count, counter: counter).octet)
            seg.append(contentsOf: body[start..<end])
            out.append(seg)
            start = end
            counter = (counter + 1) & 0x3F
        } while start < body.count
        return out
    }
}
