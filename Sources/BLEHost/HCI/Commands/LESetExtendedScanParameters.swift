import ReflectorFirmware

/// LE Set Extended Scan Parameters (0x2041, Core 6.0 Vol 4 Part E §7.8.64): `Own_Address_Type 1 (0–3) |
/// Scanning_Filter_Policy 1 (0–3) | Scanning_PHYs 1 (bit 0 LE 1M, bit 2 LE Coded; others RFU) |
/// {Scan_Type 1 (0–1) | Scan_Interval 2 | Scan_Window 2} × (bits set in Scanning_PHYs)`, the
/// per-PHY fields interleaved per PHY as Bumble and Zephyr write them, 1M first.
public struct LESetExtendedScanParameters: HCICommand {
    public static let opcode = HCIOpcode.leSetExtendedScanParameters

    public struct PHYParameters: Sendable, Equatable {
        public var active: Bool
        public var interval: UInt16
        public var window: UInt16

        public init(active: Bool = false, interval: UInt16 = 0x0010, window: UInt16 = 0x0010) {
            self.active = active
            self.interval = interval
            self.window = window
        }
    }

    public var ownAddressType: UInt8
    public var filterPolicy: UInt8
    /// LE 1M scanning, if any.
    public var le1M: PHYParameters?
    /// LE Coded scanning, if any.
    public var leCoded: PHYParameters?

    public init(ownAddressType: UInt8 = 0, filterPolicy: UInt8 = 0, le1M: PHYParameters? = PHYParameters(), leCoded: PHYParameters? = nil) {
        self.ownAddressType = ownAddressType
        self.filterPolicy = filterPolicy
        self.le1M = le1M
        self.leCoded = leCoded
    }

    /// The Scanning_PHYs octet.
    public var scanningPHYs: UInt8 { (le1M == nil ? 0 : 0x01) | (leCoded == nil ? 0 : 0x04) }

    public var parameterCapacity: Int { 13 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(ownAddressType)
        w.u8(filterPolicy)
        w.u8(scanningPHYs)
        for p in [le1M, leCoded].compactMap({ $0 }) {
            w.flag(p.active)
            w.u16(p.interval)
            w.u16(p.window)
        }
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let own = try r.u8("Own_Address_Type", in: 0...3)
        let filter = try r.u8("Scanning_Filter_Policy", in: 0...3)
        let phys = try r.u8("Scanning_PHYs")
        guard phys & ~0x05 == 0 else { throw .invalidValue(field: "Scanning_PHYs", value: Int(phys)) }
        func read(_ r: inout ByteReader) throws(DecodeError) -> PHYParameters {
            let a = try r.flag("Scan_Type")
            let i = try r.u16("Scan_Interval")
            return PHYParameters(active: a, interval: i, window: try r.u16("Scan_Window"))
        }
        let one = phys & 0x01 != 0 ? try read(&r) : nil
        let coded = phys & 0x04 != 0 ? try read(&r) : nil
        return Self(ownAddressType: own, filterPolicy: filter, le1M: one, leCoded: coded)
    }
}
