/// The 24-bit DTM Message Control field, little endian on air (FiRa MAC TR 2.0.0_0.9r0 5.9.13.2
/// Table 41 as quoted by Qorvo `FIRA_OWR_DTM_CONTROL_*`):
/// bits 0–3 management list length, 4 ranging slot index present, 5 reserved, 6–9 reply time list
/// length, 10 Final DTM present (DS-TWR), 11–12 TX timestamp length (0 = 40-bit, 1 = 64-bit),
/// 13 TX timestamp type (0 local, 1 common time base), 14 CFO present, 15 ToF present,
/// 16 hop count present, 17 anchor location present, 18 active ranging rounds present, 19–23
/// reserved.
///
/// Decision: bit 5 (undefined in Qorvo's masks; possibly the extended-address flag) and bits
/// 19–23 are sent as 0 and a frame that sets them is rejected, since its layout is unknown.
public struct DTMessageControl: Equatable, Sendable {
    public var managementListLength: UInt8 = 0
    public var slotIndexPresent = false
    public var replyTimeListLength: UInt8 = 0
    public var finalPresent = false
    /// 0 = 40-bit, 1 = 64-bit TX timestamps.
    public var timestampLength: UInt8 = 0
    public var commonTimeBase = false
    public var cfoPresent = false
    public var tofPresent = false
    public var hopCountPresent = false
    public var locationPresent = false
    public var activeRoundsPresent = false

    public init() {}

    /// Bits the format leaves undefined: 5 and 19–23.
    public static let reservedMask: UInt32 = 1 << 5 | 0xF8_0000

    public var rawValue: UInt32 {
        var v = UInt32(managementListLength & 0xF) | UInt32(replyTimeListLength & 0xF) << 6
        v |= UInt32(timestampLength & 0x3) << 11
        if slotIndexPresent { v |= 1 << 4 }
        if finalPresent { v |= 1 << 10 }
        if commonTimeBase { v |= 1 << 13 }
        if cfoPresent { v |= 1 << 14 }
        if tofPresent { v |= 1 << 15 }
        if hopCountPresent { v |= 1 << 16 }
        if locationPresent { v |= 1 << 17 }
        if activeRoundsPresent { v |= 1 << 18 }
        return v
    }

    /// Splits a received field; the reserved bits are the caller's to check.
    public init(rawValue v: UInt32) {
        managementListLength = UInt8(v & 0xF)
        slotIndexPresent = v >> 4 & 1 == 1
        replyTimeListLength = UInt8(v >> 6 & 0xF)
        finalPresent = v >> 10 & 1 == 1
        timestampLength = UInt8(v >> 11 & 0x3)
        commonTimeBase = v >> 13 & 1 == 1
        cfoPresent = v >> 14 & 1 == 1
        tofPresent = v >> 15 & 1 == 1
        hopCountPresent = v >> 16 & 1 == 1
        locationPresent = v >> 17 & 1 == 1
        activeRoundsPresent = v >> 18 & 1 == 1
    }
}
