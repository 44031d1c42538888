/// The four selectable CS times that travel as capability bitmaps and LL table indices:
/// T_IP1, T_IP2, T_FCS and T_PM (Core 6.0 Vol 6 Part H §4.x timing; capability bits in Vol 4
/// Part E §7.8.130; LL_CS_CONFIG_REQ indices in Vol 6 Part B §2.4.2.x).
///
/// Each kind has an ascending value table. The last entry is the mandatory value (no
/// capability bit); every other entry's table index is also its capability bit number, and
/// the table index is what LL_CS_CONFIG_REQ carries:
/// - T_IP1, T_IP2: 10, 20, 30, 40, 50, 60, 80, **145** µs
/// - T_FCS: 15, 20, 30, 40, 50, 60, 80, 100, 120, **150** µs
/// - T_PM: 10, 20, **40** µs
///
/// Lookups use `switch`, so they allocate nothing and can run per step.
public enum TimeKind: UInt8, Sendable, Equatable, CaseIterable {
    case tIP1
    case tIP2
    case tFCS
    case tPM

    /// The mandatory time in µs, which every controller supports without a bit.
    public var mandatoryMicroseconds: UInt16 {
        switch self {
        case .tIP1, .tIP2: return 145
        case .tFCS: return 150
        case .tPM: return 40
        }
    }

    /// Number of optional values, i.e. of defined capability bits.
    public var optionalCount: Int {
        switch self {
        case .tIP1, .tIP2: return 7
        case .tFCS: return 9
        case .tPM: return 2
        }
    }

    /// Number of table entries including the mandatory value: the LL index range is 0..<valueCount.
    @inline(__always) public var valueCount: Int { optionalCount + 1 }

    /// The capability bits that have a meaning (all others are RFU).
    @inline(__always) public var definedBits: UInt16 { UInt16((1 << optionalCount) - 1) }

    /// The time in µs at table index `index` (capability bit `index`, or the mandatory value at
    /// `optionalCount`); `nil` outside the table.
    public func microseconds(atIndex index: Int) -> UInt16? {
        guard index >= 0 && index < valueCount else { return nil }
        if index == optionalCount { return mandatoryMicroseconds }
        switch self {
        case .tIP1, .tIP2:
            switch index {
            case 0: return 10
            case 1: return 20
            case 2: return 30
            case 3: return 40
            case 4: return 50
            case 5: return 60
            default: return 80
            }
        case .tFCS:
            switch index {
            case 0: return 15
            case 1: return 20
            case 2: return 30
            case 3: return 40
            case 4: return 50
            case 5: return 60
            case 6: return 80
            case 7: return 100
            default: return 120
            }
        case .tPM:
            return index == 0 ? 10 : 20
        }
    }

    /// The table index (LL encoding) of `microseconds`; `nil` if the time is not in the table.
    public func index(ofMicroseconds microseconds: UInt16) -> Int? {
        for i in 0..<valueCount where self.microseconds(atIndex: i) == microseconds { return i }
        return nil
    }
}
