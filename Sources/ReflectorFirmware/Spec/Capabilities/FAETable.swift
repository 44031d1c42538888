import WireFormat

/// A frequency actuation error table: one signed entry per allowed CS channel (72), in units of
/// 1/32 ppm, as LE CS Write Cached Remote FAE Table (Core 6.0 Vol 4 Part E §7.8.136) and
/// LE CS Read Remote FAE Table Complete (§7.7.65.40) carry it (`int8[72]`). Entry i is taken to
/// belong to the i-th allowed channel in ascending order [U in the reference].
/// Fixed-size storage, so the reflector can hold it without allocating.
public struct FAETable: Sendable, Equatable {
    public static let count = 72
    public var entries: InlineArray<72, Int8>

    public init(repeating value: Int8 = 0) { entries = InlineArray(repeating: value) }

    /// `nil` unless `values` has exactly 72 entries.
    public init?(_ values: [Int8]) {
        guard values.count == FAETable.count else { return nil }
        entries = InlineArray(repeating: 0)
        for i in 0..<FAETable.count { entries[i] = values[i] }
    }

    public subscript(i: Int) -> Int8 {
        get { entries[i] }
        set { entries[i] = newValue }
    }

    public var array: [Int8] { (0..<FAETable.count).map { entries[$0] } }

    public static func == (a: FAETable, b: FAETable) -> Bool {
        for i in 0..<count where a.entries[i] != b.entries[i] { return false }
        return true
    }

    func encode(into w: inout ByteWriter) {
        for i in 0..<FAETable.count { w.i8(entries[i]) }
    }

    static func decode(from r: inout ByteReader) throws(DecodeError) -> FAETable {
        let raw = try r.octets(count, "FAE_Table")
        var t = FAETable()
        var i = 0
        for b in raw {
            t.entries[i] = Int8(bitPattern: b)
            i += 1
        }
        return t
    }
}
