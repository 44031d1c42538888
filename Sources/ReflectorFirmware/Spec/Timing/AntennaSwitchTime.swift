/// The antenna switch time a controller needs between tone slots (`T_SW_Time_Supported` and,
/// Core 6.3, `T_SW_IPT_Time_Supported`, Core 6.0 Vol 4 Part E §7.8.130): one of 0, 1, 2, 4 or
/// 10 µs. Any other octet is invalid and a decoder rejects it.
public enum AntennaSwitchTime: UInt8, Sendable, Equatable, CaseIterable {
    case none = 0
    case us1 = 1
    case us2 = 2
    case us4 = 4
    case us10 = 10

    /// The time in µs.
    @inline(__always) public var microseconds: UInt16 { UInt16(rawValue) }
}
