/// The PHY of CS_SYNC packets (Create Config `CS_SYNC_PHY`: 1 = LE 1M, 2 = LE 2M, 3 = LE 2M 2BT).
public enum CSSyncPHY: UInt8, Sendable, Equatable, CaseIterable {
    case le1M = 1
    case le2M = 2
    case le2M2BT = 3

    /// The LL_CS_CONFIG_REQ bitmask form (1 = 1M, 2 = 2M, 4 = 2M 2BT).
    public var llBit: UInt8 { 1 << (rawValue - 1) }
}
