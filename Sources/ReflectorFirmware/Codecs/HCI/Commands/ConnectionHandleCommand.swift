import WireFormat

/// A command whose only parameter is `Connection_Handle` (2 octets): several CS commands that
/// start a procedure with the peer have this shape and share its codec.
public protocol ConnectionHandleCommand: HCICommand {
    var connectionHandle: UInt16 { get }
    init(connectionHandle: UInt16)
}

extension ConnectionHandleCommand {
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 2)
        w.u16(connectionHandle)
        return w.bytes
    }

    public static func decode(_ parameters: some Collection<UInt8>) throws(DecodeError) -> Self {
        var r = ByteReader(parameters)
        let h = try r.connectionHandle()
        try r.expectEnd()
        return Self(connectionHandle: h)
    }
}
