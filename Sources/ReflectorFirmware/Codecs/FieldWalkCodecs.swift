import WireFormat

/// HCI parameters that list each field once, in wire order, for both directions (`FieldWalk`:
/// `fields(_:)` over a `FieldCoder`): `encodeParameters` and `decodeParameters` are that one
/// walk. What Bumble's field metadata does, with generics only, so it builds and costs nothing
/// extra under Embedded Swift.
public protocol HCIFieldWalk: HCIParameters, FieldWalk {}

/// An LL Control PDU body that lists each field once, for both directions, as `HCIFieldWalk`
/// does for HCI parameters: `encodeBody` and `decodeBody` are that one walk.
public protocol LLControlFieldWalk: LLControlBody, FieldWalk {}

extension HCIFieldWalk {
    public func encodeParameters(into w: inout ByteWriter) { writeFields(into: &w) }
    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self { try readFields(&r) }
}

extension LLControlFieldWalk {
    public func encodeBody(into w: inout ByteWriter) { writeFields(into: &w) }
    public static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> Self { try readFields(&r) }
}
