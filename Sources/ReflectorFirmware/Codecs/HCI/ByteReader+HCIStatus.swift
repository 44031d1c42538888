import WireFormat

/// Reading a Status octet as `HCIStatus` (Core 6.0 Vol 1 Part F §1.3): codes outside the
/// enumeration are rejected with `.invalidValue` rather than trapping.
extension ByteReader {
    public mutating func status(_ field: StaticString = "Status") throws(DecodeError) -> HCIStatus {
        try value(field)
    }
}
