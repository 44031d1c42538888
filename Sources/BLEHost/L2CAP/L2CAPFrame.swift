import ReflectorFirmware

/// An L2CAP basic information frame, a B-frame (Core 6.0 Vol 3 Part A §3.1): `Length 2 |
/// Channel_ID 2 | Information_Payload`, both fields little-endian, Length counting the payload
/// only. On an LE link the fixed channels carry ATT, LE signalling and SMP.
public struct L2CAPFrame: Equatable, Sendable {
    public var channel: UInt16
    public var payload: [UInt8]

    /// The LE fixed channels (Vol 3 Part A §2.1, Table 2.3).
    public static let attributeProtocol: UInt16 = 0x0004
    public static let signalling: UInt16 = 0x0005
    public static let securityManager: UInt16 = 0x0006
    /// The basic header's size.
    public static let headerSize = 4

    public init(channel: UInt16, payload: [UInt8]) {
        self.channel = channel
        self.payload = payload
    }

    /// The frame's octets; a payload longer than 65,535 octets cannot be framed (nil).
    public func encode() -> [UInt8]? {
        guard payload.count <= 0xFFFF else { return nil }
        var w = ByteWriter(capacity: Self.headerSize + payload.count)
        w.u16(UInt16(payload.count))
        w.u16(channel)
        w.octets(payload)
        return w.bytes
    }

    /// A whole frame: the header and exactly Length octets of payload.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> L2CAPFrame {
        var r = ByteReader(bytes)
        let length = try r.u16("Length")
        let channel = try r.u16("Channel_ID")
        let payload = Array(try r.octets(Int(length), "Information_Payload"))
        try r.expectEnd()
        return L2CAPFrame(channel: channel, payload: payload)
    }
}
