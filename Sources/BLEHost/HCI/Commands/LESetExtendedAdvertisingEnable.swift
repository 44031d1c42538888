import ReflectorFirmware

/// LE Set Extended Advertising Enable (0x2039, Core 6.0 Vol 4 Part E §7.8.56): `Enable 1 (0–1) |
/// Num_Sets 1 | {Advertising_Handle 1 | Duration 2 | Max_Extended_Advertising_Events 1} × Num_Sets`,
/// the sets' fields interleaved per set as Bumble, Zephyr and Linux write them. Duration in
/// 10 ms (0: until disabled). Disabling with Num_Sets 0 disables every set.
public struct LESetExtendedAdvertisingEnable: HCICommand {
    public static let opcode = HCIOpcode.leSetExtendedAdvertisingEnable

    public struct AdvertisingSet: Sendable, Equatable {
        public var handle: UInt8
        public var duration: UInt16
        public var maxEvents: UInt8

        public init(handle: UInt8, duration: UInt16 = 0, maxEvents: UInt8 = 0) {
            self.handle = handle
            self.duration = duration
            self.maxEvents = maxEvents
        }
    }

    public var enable: Bool
    /// At most 63 sets (more are cut when encoding).
    public var sets: [AdvertisingSet]

    public init(enable: Bool, sets: [AdvertisingSet]) {
        self.enable = enable
        self.sets = sets
    }

    public var parameterCapacity: Int { 2 + 4 * sets.count }

    public func encodeParameters(into w: inout ByteWriter) {
        let s = sets.prefix(63)
        w.flag(enable)
        w.u8(UInt8(s.count))
        for set in s {
            w.u8(set.handle)
            w.u16(set.duration)
            w.u8(set.maxEvents)
        }
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let enable = try r.flag("Enable")
        let n = try r.u8("Num_Sets", in: enable ? 1...0x3F : 0...0x3F)
        var sets: [AdvertisingSet] = []
        sets.reserveCapacity(Int(n))
        for _ in 0..<n {
            let h = try r.u8("Advertising_Handle", in: 0...0xEF)
            let d = try r.u16("Duration")
            sets.append(AdvertisingSet(handle: h, duration: d, maxEvents: try r.u8("Max_Extended_Advertising_Events")))
        }
        return Self(enable: enable, sets: sets)
    }
}
