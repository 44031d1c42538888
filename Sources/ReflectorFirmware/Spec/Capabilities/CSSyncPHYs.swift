/// The optional PHYs a controller can send CS_SYNC packets on (`CS_SYNC_PHYs_Supported`,
/// Core 6.0 Vol 4 Part E §7.8.130): bit 1 LE 2M, bit 2 LE 2M 2BT. LE 1M is mandatory and has
/// no bit (bit 0 is RFU). Zephyr, BlueZ and TI agree; Bumble's 0x01/0x02 values are wrong.
public struct CSSyncPHYs: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let le2M = CSSyncPHYs(rawValue: 1 << 1)
    public static let le2M2BT = CSSyncPHYs(rawValue: 1 << 2)

    /// Whether `phy` is supported (LE 1M always is).
    @inline(__always) public func supports(_ phy: CSSyncPHY) -> Bool {
        switch phy {
        case .le1M: return true
        case .le2M: return contains(.le2M)
        case .le2M2BT: return contains(.le2M2BT)
        }
    }
}
