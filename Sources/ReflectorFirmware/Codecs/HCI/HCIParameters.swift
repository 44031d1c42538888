import WireFormat

/// The parameters of an HCI command or event as a value type that writes itself
/// (Core 6.0 Vol 4 Part E §5.4): a conforming type appends only its own fields
/// (`encodeParameters(into:)`) and gets the parameter octets, `encode()`, from this protocol.
/// `HCICommand`, `HCIEvent` and `LEMetaSubevent` add the packet around them.
///
/// Generic, not existential: every conforming type gets its own specialised copy of the
/// defaults, which cost what hand-written ones did (under Embedded Swift too).
public protocol HCIParametersEncodable: Sendable, Equatable {
    /// Appends the parameters (without the packet header).
    func encodeParameters(into w: inout ByteWriter)
    /// Octets to reserve for `encode()`: a hint, 32 unless the type knows better.
    var parameterCapacity: Int { get }
}

/// Parameters that also read themselves without outside context (`decodeParameters(_:)`), and
/// so get `decode(_:)`: exactly their fields, `.trailingBytes` for anything left over.
public protocol HCIParameters: HCIParametersEncodable {
    /// Reads the parameters; `decode(_:)` then requires that nothing is left.
    static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self
}

extension HCIParametersEncodable {
    public var parameterCapacity: Int { 32 }

    /// The parameter octets (without the packet header).
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: parameterCapacity)
        encodeParameters(into: &w)
        return w.bytes
    }
}

extension HCIParameters {
    /// Parses the parameter octets, which must hold this type's fields and nothing more.
    public static func decode(_ parameters: some Collection<UInt8>) throws(DecodeError) -> Self {
        var r = ByteReader(parameters)
        let value = try decodeParameters(&r)
        try r.expectEnd()
        return value
    }
}
