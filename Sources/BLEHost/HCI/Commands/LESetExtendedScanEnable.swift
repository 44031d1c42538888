import ReflectorFirmware

/// LE Set Extended Scan Enable (0x2042, Core 6.0 Vol 4 Part E §7.8.65): `Enable 1 (0–1) |
/// Filter_Duplicates 1 (0–2) | Duration 2 (10 ms, 0 until disabled) | Period 2 (1.28 s, 0 continuous)`.
public struct LESetExtendedScanEnable: HCICommand {
    public static let opcode = HCIOpcode.leSetExtendedScanEnable

    public var enable: Bool
    /// Off 0, on 1, on and reset each period 2.
    public var filterDuplicates: UInt8
    public var duration: UInt16
    public var period: UInt16

    public init(enable: Bool, filterDuplicates: UInt8 = 0, duration: UInt16 = 0, period: UInt16 = 0) {
        self.enable = enable
        self.filterDuplicates = filterDuplicates
        self.duration = duration
        self.period = period
    }

    public var parameterCapacity: Int { 6 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.flag(enable)
        w.u8(filterDuplicates)
        w.u16(duration)
        w.u16(period)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let e = try r.flag("Enable")
        let f = try r.u8("Filter_Duplicates", in: 0...2)
        let d = try r.u16("Duration")
        return Self(enable: e, filterDuplicates: f, duration: d, period: try r.u16("Period"))
    }
}
