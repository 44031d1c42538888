import WireFormat

/// LE CS Test End Complete (LE Meta 0x33): a CS test started by LE CS Test has ended
/// (Core 6.0 Vol 4 Part E §7.7.65.46). 1 octet: `Status`. (Bumble adds a Connection_Handle;
/// Zephyr, BlueZ and Android do not, and neither does this codec.)
public struct LECSTestEndComplete: LEMetaSubevent {
    public static let subeventCode: UInt8 = 0x33
    public var status: HCIStatus

    public init(status: HCIStatus = .success) { self.status = status }

    public func encode() -> [UInt8] { [status.rawValue] }

    public static func decode(_ parameters: some Collection<UInt8>) throws(DecodeError) -> LECSTestEndComplete {
        var r = ByteReader(parameters)
        let s = try r.status()
        try r.expectEnd()
        return LECSTestEndComplete(status: s)
    }
}
