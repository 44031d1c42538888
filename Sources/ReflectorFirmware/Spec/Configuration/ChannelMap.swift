/// A CS channel map (Create Config `Channel_Map`, Set Channel Classification): 80 bits, bit k
/// for CS channel k (RF 2402 + k MHz), octet k/8 bit k%8 on the wire (Core 6.0 Vol 4 Part E
/// §7.8.137). Channels 0, 1, 23, 24, 25, 77 and 78 are never used for CS; bit 79 is RFU.
public struct ChannelMap: Sendable, Equatable, Hashable {
    /// Bits 0...63.
    public var low: UInt64
    /// Bits 64...79.
    public var high: UInt16

    public init(low: UInt64, high: UInt16) {
        self.low = low
        self.high = high
    }

    /// Channels a CS channel map may enable: 2...22 and 26...76 (72 channels).
    public static let allowed = ChannelMap(low: 0xFFFF_FFFF_FC7F_FFFC, high: 0x1FFF)
    public static let none = ChannelMap(low: 0, high: 0)

    /// The 10 octets as HCI and LL carry them, channel 0 in bit 0 of the first octet.
    public init(wire octets: some Collection<UInt8>) {
        var l: UInt64 = 0
        var h: UInt16 = 0
        for (i, b) in octets.prefix(10).enumerated() {
            if i < 8 { l |= UInt64(b) << UInt64(8 * i) } else { h |= UInt16(b) << UInt16(8 * (i - 8)) }
        }
        low = l
        high = h
    }

    public var wire: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(10)
        for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: low >> UInt64(8 * i))) }
        out.append(UInt8(truncatingIfNeeded: high))
        out.append(UInt8(truncatingIfNeeded: high >> 8))
        return out
    }

    /// Parses 20 hex digits written most significant octet first, as Nordic prints maps and
    /// this project's JSON files write them (`1FFFFFFFFFFFFC7FFFFC` is every allowed channel).
    public init?(hex: some StringProtocol) {
        var digits: [UInt8] = []
        for c in hex.utf8 {
            switch c {
            case 0x30...0x39: digits.append(c - 0x30)
            case 0x41...0x46: digits.append(c - 0x41 + 10)
            case 0x61...0x66: digits.append(c - 0x61 + 10)
            default: return nil
            }
        }
        guard digits.count == 20 else { return nil }
        var l: UInt64 = 0
        var h: UInt16 = 0
        for (i, d) in digits.enumerated() {
            let bit = 4 * (19 - i)
            if bit >= 64 { h |= UInt16(d) << UInt16(bit - 64) } else { l |= UInt64(d) << UInt64(bit) }
        }
        low = l
        high = h
    }

    /// 20 hex digits, most significant octet first.
    public var hex: String {
        let digits: [Character] = Array("0123456789ABCDEF")
        var s = ""
        for i in (0..<20).reversed() {
            let bit = 4 * i
            let d = bit >= 64 ? Int((high >> UInt16(bit - 64)) & 0xF) : Int((low >> UInt64(bit)) & 0xF)
            s.append(digits[d])
        }
        return s
    }

    @inline(__always)
    public func contains(_ channel: Int) -> Bool {
        guard channel >= 0 && channel < 80 else { return false }
        return channel < 64 ? (low >> UInt64(channel)) & 1 != 0 : (high >> UInt16(channel - 64)) & 1 != 0
    }

    public mutating func insert(_ channel: Int) {
        guard channel >= 0 && channel < 80 else { return }
        if channel < 64 { low |= 1 << UInt64(channel) } else { high |= 1 << UInt16(channel - 64) }
    }

    public static func & (a: ChannelMap, b: ChannelMap) -> ChannelMap {
        ChannelMap(low: a.low & b.low, high: a.high & b.high)
    }

    /// Number of enabled channels.
    public var count: Int { low.nonzeroBitCount + high.nonzeroBitCount }

    /// Whether bits outside the allowed channels (0, 1, 23–25, 77–79) are set.
    public var usesDisallowedChannels: Bool { self & ChannelMap.allowed != self }
}
