import WireFormat

/// A command for one connection (its `Connection_Handle`).
public protocol HCIConnectionCommand: HCICommand {
    var connectionHandle: UInt16 { get }
}

/// A command whose only parameter is `Connection_Handle` (2 octets): several CS commands that
/// start a procedure with the peer have this shape and share its codec.
public protocol ConnectionHandleCommand: HCIConnectionCommand {
    init(connectionHandle: UInt16)
}

extension ConnectionHandleCommand {
    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        Self(connectionHandle: try r.connectionHandle())
    }
}
