import WireFormat

/// Reading the fields of a received DTM with WireFormat's `ByteReader`, each shortfall reported
/// as `DTFrameError.truncated` naming the `DTField` and the octet offset where the field starts
/// (the reader is made over the frame from its first octet, so its offset is the frame's).
/// DTM fields are little-endian (IEEE 802.15.4 and FiRa MAC).
extension ByteReader {
    mutating func uint(_ width: Int, _ field: DTField) throws(DTFrameError) -> UInt64 {
        do { return try uint(width, field.name) } catch { throw .truncated(field: field, offset: offset) }
    }

    mutating func u8(_ field: DTField) throws(DTFrameError) -> UInt8 { UInt8(truncatingIfNeeded: try uint(1, field)) }
    mutating func u16(_ field: DTField) throws(DTFrameError) -> UInt16 { UInt16(truncatingIfNeeded: try uint(2, field)) }
    mutating func u32(_ field: DTField) throws(DTFrameError) -> UInt32 { UInt32(truncatingIfNeeded: try uint(4, field)) }

    /// `count` octets of `field`, as they stand.
    mutating func octets(_ count: Int, _ field: DTField) throws(DTFrameError) -> ArraySlice<UInt8> {
        do { return try octets(count, field.name) } catch { throw .truncated(field: field, offset: offset) }
    }

    mutating func skip(_ count: Int, _ field: DTField) throws(DTFrameError) {
        do { try skip(count, field.name) } catch { throw .truncated(field: field, offset: offset) }
    }
}
