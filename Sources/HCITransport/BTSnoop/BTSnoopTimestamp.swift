/// A btsnoop record timestamp: a signed 64-bit count of microseconds since midnight, January 1st
/// of year 0 ("0 AD") in the format's nominal calendar (Frontline "BTSnoop File Format").
///
/// The format gives no leap-second or calendar rules, so readers and writers agree on constants
/// instead: Wireshark's btsnoop wiretap and Mindtree's EtherMind use 0x00DCDDB30F2F8000 for the
/// Unix epoch; BlueZ and Bumble add 0x00E03AB44A676000 to microseconds since 2000-01-01, which
/// is the same instant scale (the two constants differ by exactly 946 684 800 s). Note that
/// 0x00E03AB44A676000 is the offset to **2000**, not to 1970.
///
/// Nothing here reads a clock: wall-clock microseconds come from the caller (a file sink at the
/// edge of the program), virtual-clock microseconds from the emulator, so tests are exact.
public struct BTSnoopTimestamp: Sendable, Hashable, Comparable {
    /// Microseconds from 0 AD to 1970-01-01T00:00:00Z (62 168 256 000 s).
    public static let unixEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000
    /// Microseconds from 0 AD to 2000-01-01T00:00:00Z, the constant BlueZ and Bumble add.
    public static let year2000Offset: Int64 = 0x00E0_3AB4_4A67_6000

    /// The value stored in the record.
    public var microsecondsSinceYearZero: Int64

    public init(microsecondsSinceYearZero: Int64) {
        self.microsecondsSinceYearZero = microsecondsSinceYearZero
    }

    /// The timestamp of a Unix time in microseconds (saturating at the ends of `Int64` rather
    /// than trapping, for times nobody will capture).
    public init(unixMicroseconds: Int64) {
        let (sum, overflow) = unixMicroseconds.addingReportingOverflow(BTSnoopTimestamp.unixEpochOffset)
        microsecondsSinceYearZero = overflow ? .max : sum
    }

    /// Where virtual time 0 lands by default: 2000-01-01T00:00:00Z, so the stored value is
    /// `year2000Offset + virtualMicroseconds`, BlueZ's own convention. Not 1970: btmon (5.66)
    /// subtracts the 2000 constant as an unsigned number and prints nonsense for earlier times,
    /// while Wireshark shows either correctly.
    public static let defaultVirtualOrigin: Int64 = 946_684_800_000_000

    /// The timestamp of a virtual-clock reading: `virtualMicroseconds` after the Unix time
    /// `origin` (in microseconds; default `defaultVirtualOrigin`), so absolute times in a loopback
    /// capture read as elapsed virtual time. Saturates instead of trapping.
    public init(virtualMicroseconds: UInt64, origin unixMicroseconds: Int64 = BTSnoopTimestamp.defaultVirtualOrigin) {
        let elapsed = Int64(clamping: virtualMicroseconds)
        let (unix, overflow) = unixMicroseconds.addingReportingOverflow(elapsed)
        self.init(unixMicroseconds: overflow ? .max : unix)
    }

    /// The Unix time in microseconds (saturating).
    public var unixMicroseconds: Int64 {
        let (difference, overflow) = microsecondsSinceYearZero.subtractingReportingOverflow(BTSnoopTimestamp.unixEpochOffset)
        return overflow ? .min : difference
    }

    public static func < (lhs: BTSnoopTimestamp, rhs: BTSnoopTimestamp) -> Bool {
        lhs.microsecondsSinceYearZero < rhs.microsecondsSinceYearZero
    }
}
