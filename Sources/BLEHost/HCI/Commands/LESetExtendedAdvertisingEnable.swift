import ReflectorFirmware

/// LE Set Extended Advertising Enable (0x2039, Core 6.0 Vol 4 Part E §7.8.56): `Enable 1 (0–1) |
/// Num_Sets 1 | {Advertising_Handle 1 | Duration 2 | Max_Extended_Advertising_Events 1} × Num_Sets`,
/// the sets' fields interleaved per set as Bumble, Zephyr and Linux write them. Duration in
/// 10 ms (0: until disabled). Disabling with Num_Sets 0 disables every set.
public struct LESetExtendedAdvertisingEnable: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leSetExtendedAdvertisingEnable
    public static let name: StaticString = "LE Set Extended Advertising Enable"

    public struct AdvertisingSet: HCIFieldGroup {
        public var handle: UInt8
        public var duration: UInt16
        public var maxEvents: UInt8

        public init(handle: UInt8, duration: UInt16 = 0, maxEvents: UInt8 = 0) {
            (self.handle, self.duration, self.maxEvents) = (handle, duration, maxEvents)
        }

        public static let fields: [HCIField<Self>] = [.u8(\.handle, "Advertising_Handle", in: 0...0xEF), .u16(\.duration, "Duration"),
                                                      .u8(\.maxEvents, "Max_Extended_Advertising_Events")]
        public static var blank: Self { Self(handle: 0) }
    }

    public var enable: Bool
    /// At most 63 sets (more are cut when encoding).
    public var sets: [AdvertisingSet]

    public init(enable: Bool, sets: [AdvertisingSet]) { (self.enable, self.sets) = (enable, sets) }

    public static let fields: [HCIField<Self>] = [.flag(\.enable, "Enable"), .list(\.sets, "Num_Sets", in: 0...0x3F).checked { v throws(DecodeError) in
        // Enabling names at least one set.
        if v.enable && v.sets.isEmpty { throw .invalidValue(field: "Num_Sets", value: 0) }
    }]
    public static var blank: Self { Self(enable: false, sets: []) }
}
