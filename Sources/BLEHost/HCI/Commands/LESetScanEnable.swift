import ReflectorFirmware

/// LE Set Scan Enable (0x200C, Core 6.0 Vol 4 Part E §7.8.11): `LE_Scan_Enable 1 (0–1) |
/// Filter_Duplicates 1 (0–1)`.
public struct LESetScanEnable: HCICommand {
    public static let opcode = HCIOpcode.leSetScanEnable

    public var enable: Bool
    public var filterDuplicates: Bool

    public init(enable: Bool, filterDuplicates: Bool = false) {
        self.enable = enable
        self.filterDuplicates = filterDuplicates
    }

    public var parameterCapacity: Int { 2 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.flag(enable)
        w.flag(filterDuplicates)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let e = try r.flag("LE_Scan_Enable")
        return Self(enable: e, filterDuplicates: try r.flag("Filter_Duplicates"))
    }
}
