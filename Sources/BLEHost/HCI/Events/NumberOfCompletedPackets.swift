import ReflectorFirmware

/// Number Of Completed Packets (event 0x13, Core 6.0 Vol 4 Part E §7.7.19): ACL flow control.
/// `Num_Handles 1 | {Connection_Handle 2 | Num_Completed_Packets 2} × Num_Handles`, the pairs
/// interleaved per handle as Bumble, Zephyr and Linux read and write them.
public struct NumberOfCompletedPackets: HCIEvent {
    public static let eventCode = HCIEventCode.numberOfCompletedPackets

    public struct Entry: Sendable, Equatable {
        public var connectionHandle: UInt16
        public var completedPackets: UInt16

        public init(connectionHandle: UInt16, completedPackets: UInt16) {
            self.connectionHandle = connectionHandle
            self.completedPackets = completedPackets
        }
    }

    /// At most 63 entries (more are cut when encoding: 255 parameter octets).
    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    public init(connectionHandle: UInt16, completedPackets: UInt16) {
        self.init(entries: [Entry(connectionHandle: connectionHandle, completedPackets: completedPackets)])
    }

    public var parameterCapacity: Int { 1 + 4 * entries.count }

    public func encodeParameters(into w: inout ByteWriter) {
        let e = entries.prefix(63)
        w.u8(UInt8(e.count))
        for entry in e {
            w.u16(entry.connectionHandle)
            w.u16(entry.completedPackets)
        }
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let n = try r.u8("Num_Handles", in: 0...63)
        var entries: [Entry] = []
        entries.reserveCapacity(Int(n))
        for _ in 0..<n {
            let h = try r.connectionHandle()
            entries.append(Entry(connectionHandle: h, completedPackets: try r.u16("Num_Completed_Packets")))
        }
        return Self(entries: entries)
    }
}
