import ReflectorFirmware

/// One field of an HCI command or event, declared once as Bumble's `hci.py` declares it
/// (`field(metadata=metadata(2))`): the spec's name, where the value lives (a key path), how it
/// is written and how it is read back, with the range the spec allows. A codec lists its fields
/// in wire order (`HCIFieldGroup.fields`), and that one list drives `encodeParameters`,
/// `decodeParameters` (decode errors name the field), `parameterCapacity` and the byte map
/// (`HCIFieldGroup.layout`).
///
/// Host side only: key paths and closures are fine here; the firmware codecs, which build
/// with Embedded Swift, write their fields by hand or through `FieldCoder`.
public struct HCIField<Root>: @unchecked Sendable {
    // Sendable by construction: the closures capture only key paths, ranges and static
    // strings, all immutable.

    /// The spec's name of the field (for a composite field, its first part's).
    public let name: StaticString
    /// Its size in the byte map: `"1"`, `"6"`, `"n"`, `"(16 × PHYs)"`.
    public let size: String
    let octets: (Root) -> Int
    let write: (Root, inout ByteWriter) -> Void
    let read: (inout ByteReader, inout Root) throws(DecodeError) -> Void

    public init(_ name: StaticString, size: String, octets: @escaping (Root) -> Int, write: @escaping (Root, inout ByteWriter) -> Void,
                read: @escaping (inout ByteReader, inout Root) throws(DecodeError) -> Void) {
        self.name = name
        self.size = size
        self.octets = octets
        self.write = write
        self.read = read
    }

    /// A field of fixed width `width`.
    public init(_ name: StaticString, width: Int, write: @escaping (Root, inout ByteWriter) -> Void,
                read: @escaping (inout ByteReader, inout Root) throws(DecodeError) -> Void) {
        self.init(name, size: String(width), octets: { _ in width }, write: write, read: read)
    }

    /// This field of a part (`\.connection`) as a field of the whole: how a codec composes
    /// another's fields (LE Enhanced Connection Complete around LE Connection Complete).
    public func lifted<Whole>(_ part: WritableKeyPath<Whole, Root>) -> HCIField<Whole> {
        let (octets, write, read) = (octets, write, read)
        return HCIField<Whole>(name, size: size, octets: { octets($0[keyPath: part]) }, write: { write($0[keyPath: part], &$1) },
                               read: { (r: inout ByteReader, v: inout Whole) throws(DecodeError) in try read(&r, &v[keyPath: part]) })
    }

    /// This field, with `check` run on the value once the field is read: a rule that ties the
    /// field to one read before it (Num_Sets at least 1 when enabling).
    public func checked(_ check: @escaping (Root) throws(DecodeError) -> Void) -> Self {
        let read = read
        return Self(name, size: size, octets: octets, write: write, read: { (r: inout ByteReader, v: inout Root) throws(DecodeError) in
            try read(&r, &v)
            try check(v)
        })
    }
}

// MARK: The field kinds

extension HCIField {
    /// An integer stored in `width` octets (little-endian); a value `allowed` refuses is
    /// `.invalidValue`.
    public static func int<T: FixedWidthInteger & Sendable>(_ key: WritableKeyPath<Root, T>, _ name: StaticString, width: Int = MemoryLayout<T>.size,
                                                            allowing allowed: ((T) -> Bool)? = nil) -> Self {
        Self(name, width: width, write: { $1.writeInteger($0[keyPath: key], width: width) }, read: { (r: inout ByteReader, v: inout Root) throws(DecodeError) in
            let x = try r.readInteger(name, width: width, as: T.self)
            if let allowed, !allowed(x) { throw .invalidValue(field: name, value: Int(truncatingIfNeeded: x)) }
            v[keyPath: key] = x
        })
    }

    /// An integer that must lie in `range`.
    public static func int<T: FixedWidthInteger & Sendable>(_ key: WritableKeyPath<Root, T>, _ name: StaticString, width: Int = MemoryLayout<T>.size,
                                                            in range: ClosedRange<T>) -> Self {
        int(key, name, width: width, allowing: { range.contains($0) })
    }

    public static func u8(_ key: WritableKeyPath<Root, UInt8>, _ name: StaticString) -> Self { int(key, name) }
    public static func u8(_ key: WritableKeyPath<Root, UInt8>, _ name: StaticString, in range: ClosedRange<UInt8>) -> Self { int(key, name, in: range) }
    /// An octet `allowed` accepts: a range with a special value beside it (SID 0–15 or 0xFF).
    public static func u8(_ key: WritableKeyPath<Root, UInt8>, _ name: StaticString, allowing allowed: @escaping (UInt8) -> Bool) -> Self {
        int(key, name, allowing: allowed)
    }
    public static func i8(_ key: WritableKeyPath<Root, Int8>, _ name: StaticString) -> Self { int(key, name) }
    public static func u16(_ key: WritableKeyPath<Root, UInt16>, _ name: StaticString) -> Self { int(key, name) }
    /// 24 bits (the high octet of the `UInt32` is not sent).
    public static func u24(_ key: WritableKeyPath<Root, UInt32>, _ name: StaticString) -> Self { int(key, name, width: 3) }
    public static func u64(_ key: WritableKeyPath<Root, UInt64>, _ name: StaticString) -> Self { int(key, name) }
    /// A BD_ADDR: 6 octets, the low 48 bits of the `UInt64`.
    public static func address(_ key: WritableKeyPath<Root, UInt64>, _ name: StaticString) -> Self { int(key, name, width: 6) }

    /// A 0x00/0x01 octet.
    public static func flag(_ key: WritableKeyPath<Root, Bool>, _ name: StaticString) -> Self {
        Self(name, width: 1, write: { $1.flag($0[keyPath: key]) }, read: { (r: inout ByteReader, v: inout Root) throws(DecodeError) in
            v[keyPath: key] = try r.flag(name)
        })
    }

    /// An enumerated octet: a value the enumeration does not list, or outside `range` (a
    /// layout that allows only some of its cases), is `.invalidValue`.
    public static func value<E: RawRepresentable>(_ key: WritableKeyPath<Root, E>, _ name: StaticString, in range: ClosedRange<UInt8>? = nil) -> Self
    where E.RawValue == UInt8 {
        Self(name, width: 1, write: { $1.u8($0[keyPath: key].rawValue) }, read: { (r: inout ByteReader, v: inout Root) throws(DecodeError) in
            let e = try r.value(name, as: E.self)
            if let range, !range.contains(e.rawValue) { throw .invalidValue(field: name, value: Int(e.rawValue)) }
            v[keyPath: key] = e
        })
    }

    /// A Status octet (`HCIStatus`), or an error code under another name (Disconnect's Reason).
    public static func status(_ key: WritableKeyPath<Root, HCIStatus>, _ name: StaticString = "Status") -> Self { value(key, name) }

    /// A Connection_Handle: 12 bits in 16 (`.invalidValue` above 0x0FFF).
    public static func handle(_ key: WritableKeyPath<Root, UInt16>) -> Self { int(key, "Connection_Handle", in: 0...0x0FFF) }

    /// A 16-octet key (LTK), as on the wire; shorter is zero-padded when encoding.
    public static func key(_ key: WritableKeyPath<Root, [UInt8]>, _ name: StaticString) -> Self {
        Self(name, width: 16, write: { $1.key($0[keyPath: key]) }, read: { (r: inout ByteReader, v: inout Root) throws(DecodeError) in
            v[keyPath: key] = try r.key(name)
        })
    }

    /// A length octet (at most `maximum`) and that many octets; longer data is cut when encoding.
    public static func lengthPrefixed(_ key: WritableKeyPath<Root, [UInt8]>, _ lengthName: StaticString, _ name: StaticString, maximum: Int) -> Self {
        Self(lengthName, size: "1 | \(name) n", octets: { 1 + min($0[keyPath: key].count, maximum) }, write: {
            let d = $0[keyPath: key].prefix(maximum)
            $1.u8(UInt8(d.count))
            $1.octets(d)
        }, read: { (r: inout ByteReader, v: inout Root) throws(DecodeError) in
            v[keyPath: key] = try r.lengthPrefixed(lengthName, name, maximum: maximum)
        })
    }

    /// A count octet (within `counts`; at most its upper bound are encoded) and that many
    /// elements, each whole with its own fields, as Bumble, Zephyr and Linux lay out the
    /// reports and handle lists.
    public static func list<E: HCIFieldGroup>(_ key: WritableKeyPath<Root, [E]>, _ countName: StaticString, in counts: ClosedRange<UInt8>) -> Self {
        let most = Int(counts.upperBound)
        return Self(countName, size: "1 | {\(E.layout)} × \(countName)", octets: { 1 + $0[keyPath: key].prefix(most).reduce(0) { $0 + $1.fieldOctets } }, write: {
            let elements = $0[keyPath: key].prefix(most)
            $1.u8(UInt8(elements.count))
            for e in elements { e.writeFields(into: &$1) }
        }, read: { (r: inout ByteReader, v: inout Root) throws(DecodeError) in
            let n = try r.u8(countName, in: counts)
            var elements: [E] = []
            elements.reserveCapacity(Int(n))
            for _ in 0..<n { elements.append(try E.readFields(&r)) }
            v[keyPath: key] = elements
        })
    }

    /// One element group per bit of a PHY mask, the mask first: the per-PHY blocks of LE
    /// Extended Create Connection and LE Set Extended Scan Parameters. `phys` pairs each
    /// optional block with its bit, in wire order; a mask outside `allowed` is `.invalidValue`.
    public static func perPHY<E: HCIFieldGroup>(_ maskName: StaticString, _ phys: [(bit: UInt8, key: WritableKeyPath<Root, E?>)],
                                                allowed: @escaping (UInt8) -> Bool) -> Self {
        func present(_ v: Root) -> [E] { phys.compactMap { v[keyPath: $0.key] } }
        return Self(maskName, size: "1 | {\(E.layout)} × PHYs", octets: { 1 + present($0).reduce(0) { $0 + $1.fieldOctets } }, write: { v, w in
            w.u8(phys.reduce(0) { v[keyPath: $1.key] == nil ? $0 : $0 | $1.bit })
            for e in present(v) { e.writeFields(into: &w) }
        }, read: { (r: inout ByteReader, v: inout Root) throws(DecodeError) in
            let mask = try r.u8(maskName)
            guard allowed(mask) else { throw .invalidValue(field: maskName, value: Int(mask)) }
            for p in phys { v[keyPath: p.key] = mask & p.bit != 0 ? try E.readFields(&r) : nil }
        })
    }
}

extension Array {
    /// These fields with `more` after the field named `name` (composition: the Enhanced forms
    /// put the resolvable private addresses after Peer_Address).
    public func inserting<Root>(_ more: [HCIField<Root>], after name: StaticString) -> [HCIField<Root>] where Element == HCIField<Root> {
        guard let i = firstIndex(where: { $0.name.description == name.description }) else { return self + more }
        return Array(self[...i]) + more + self[(i + 1)...]
    }
}
