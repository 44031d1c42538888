import WireFormat

/// LE CS Test End Complete (LE Meta 0x33): a CS test started by LE CS Test has ended
/// (Core 6.0 Vol 4 Part E §7.7.65.46). 1 octet: `Status`. (Bumble adds a Connection_Handle;
/// Zephyr, BlueZ and Android do not, and neither does this codec.)
public struct LECSTestEndComplete: LEMetaSubevent {
    public static let subeventCode: UInt8 = LESubeventCode.csTestEndComplete
    public static var name: StaticString { "LE CS Test End Complete" }
    public var status: HCIStatus

    public init(status: HCIStatus = .success) { self.status = status }

    public func encodeParameters(into w: inout ByteWriter) { w.u8(status.rawValue) }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSTestEndComplete {
        let s = try r.status()
        return LECSTestEndComplete(status: s)
    }
}
