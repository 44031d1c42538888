/// Where the sounding sequence of a mode-1/3 step carries its markers and which signal they use
/// (Core 6.0 Vol 6 Part H §4.x; transaction IDs 6 and 7).
///
/// A 32-bit sequence has one marker at bit p = hr1(29); a 96-bit one has p1 = hr1(64) and
/// p2 = 67 + hr1(75), the second dropped when it lands past bit 92. Each marker draws one bit
/// for its signal: 0 = '0011', 1 = '1100' [U: the bit-to-pattern mapping is implementation-specific].
public struct SoundingMarker: Sendable, Equatable {
    public var firstPosition: UInt8
    public var secondPosition: UInt8?
    public var firstSignal: UInt8
    public var secondSignal: UInt8?

    @inline(__always)
    public static func draw<C: BlockCipher>(_ rtt: RTTType, _ bits: inout CSRandomBits<C>) -> SoundingMarker? {
        switch rtt {
        case .sounding32:
            let p = UInt8(bits.hr1(29, .soundingMarkerPosition))
            return SoundingMarker(firstPosition: p, secondPosition: nil,
                firstSignal: UInt8(bits.bits(1, .soundingMarkerSignal)), secondSignal: nil)
        case .sounding96:
            let p1 = UInt8(bits.hr1(64, .soundingMarkerPosition))
            let raw2 = 67 + bits.hr1(75, .soundingMarkerPosition)
            let p2: UInt8? = raw2 > 92 ? nil : UInt8(raw2)
            let s1 = UInt8(bits.bits(1, .soundingMarkerSignal))
            let s2: UInt8? = p2 == nil ? nil : UInt8(bits.bits(1, .soundingMarkerSignal))
            return SoundingMarker(firstPosition: p1, secondPosition: p2, firstSignal: s1, secondSignal: s2)
        default:
            return nil
        }
    }
}
