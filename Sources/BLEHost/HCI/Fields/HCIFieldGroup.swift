import ReflectorFirmware

/// A value whose wire form is its list of fields (`HCIField`), in order: an HCI command's or
/// event's parameters, or one element of a repeated group (an advertising report, a PHY's
/// parameters). Written and read through the list, nothing else.
public protocol HCIFieldGroup: Sendable, Equatable {
    /// The fields in wire order, each declared once.
    static var fields: [HCIField<Self>] { get }
    /// A value that decoding starts from and every field overwrites.
    static var blank: Self { get }
}

extension HCIFieldGroup {
    /// Appends every field.
    public func writeFields(into w: inout ByteWriter) {
        for f in Self.fields { f.write(self, &w) }
    }

    /// Reads every field, in order; errors name the field.
    public static func readFields(_ r: inout ByteReader) throws(DecodeError) -> Self {
        var v = blank
        for f in fields { try f.read(&r, &v) }
        return v
    }

    /// The octets this value takes on the wire.
    public var fieldOctets: Int { Self.fields.reduce(0) { $0 + $1.octets(self) } }

    /// The byte map, from the field list: `Status 1 | Connection_Handle 2 | …`.
    public static var layout: String { fields.map { "\($0.name) \($0.size)" }.joined(separator: " | ") }
}

/// HCI parameters (a command, its return parameters, an event) whose codec is their field
/// list: `encodeParameters`, `decodeParameters` and `parameterCapacity` come from
/// `HCIFieldGroup.fields`.
public protocol HCIFieldCodec: HCIFieldGroup, HCIParameters {}

extension HCIFieldCodec {
    public var parameterCapacity: Int { fieldOctets }
    public func encodeParameters(into w: inout ByteWriter) { writeFields(into: &w) }
    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self { try readFields(&r) }
}
