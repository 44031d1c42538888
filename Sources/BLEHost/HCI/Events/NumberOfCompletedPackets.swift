import ReflectorFirmware

/// Number Of Completed Packets (event 0x13, Core 6.0 Vol 4 Part E §7.7.19): ACL flow control.
/// `Num_Handles 1 | {Connection_Handle 2 | Num_Completed_Packets 2} × Num_Handles`, the pairs
/// interleaved per handle as Bumble, Zephyr and Linux read and write them.
public struct NumberOfCompletedPackets: HCIEvent, HCIFieldCodec {
    public static let eventCode = HCIEventCode.numberOfCompletedPackets
    public static var name: StaticString { "Number Of Completed Packets" }

    public struct Entry: HCIFieldGroup {
        public var connectionHandle: UInt16
        public var completedPackets: UInt16

        public init(connectionHandle: UInt16, completedPackets: UInt16) {
            (self.connectionHandle, self.completedPackets) = (connectionHandle, completedPackets)
        }

        public static let fields: [HCIField<Self>] = [.handle(\.connectionHandle), .u16(\.completedPackets, "Num_Completed_Packets")]
        public static var blank: Self { Self(connectionHandle: 0, completedPackets: 0) }
    }

    /// At most 63 entries (more are cut when encoding: 255 parameter octets).
    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    public init(connectionHandle: UInt16, completedPackets: UInt16) {
        self.init(entries: [Entry(connectionHandle: connectionHandle, completedPackets: completedPackets)])
    }

    public static let fields: [HCIField<Self>] = [.list(\.entries, "Num_Handles", in: 0...63)]
    public static var blank: Self { Self(entries: []) }
}
