/// The one-octet Segmentation Header that starts every RAS ranging-data notification or
/// indication (RAS 1.0 §3.2.1.1, Tables 3.4/3.5): bit 0 first segment, bit 1 last segment,
/// bits 2–7 a rolling segment counter (mod 64).
public struct RASSegmentationHeader: Sendable, Equatable, Hashable {
    public var isFirst: Bool
    public var isLast: Bool
    /// 0...63.
    public var counter: UInt8

    public init(isFirst: Bool, isLast: Bool, counter: UInt8) {
        self.isFirst = isFirst
        self.isLast = isLast
        self.counter = counter & 0x3F
    }

    public init(octet: UInt8) {
        self.init(isFirst: octet & 0x01 != 0, isLast: octet & 0x02 != 0, counter: octet >> 2)
    }

    public var octet: UInt8 { (isFirst ? 1 : 0) | (isLast ? 2 : 0) | (counter & 0x3F) << 2 }
}
