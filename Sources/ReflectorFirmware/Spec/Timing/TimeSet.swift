/// A set of supported times of one kind (T_IP1, T_IP2, T_FCS or T_PM), held as the
/// capability bitmap the HCI capabilities block and the LL capabilities PDU carry
/// (Core 6.0 Vol 4 Part E §7.8.130). The mandatory value is always a member and has no bit.
///
/// `bits` is kept exactly as received, RFU bits included, so a decoded block re-encodes to
/// the same octets; RFU bits never make a time a member.
public struct TimeSet: Sendable, Hashable {
    public let kind: TimeKind
    /// The capability bitmap as on the wire: bit i = `kind.microseconds(atIndex: i)`.
    public var bits: UInt16

    public init(_ kind: TimeKind, bits: UInt16 = 0) {
        self.kind = kind
        self.bits = bits
    }

    /// Only the mandatory time.
    public static func mandatory(_ kind: TimeKind) -> TimeSet { TimeSet(kind) }

    /// Every time of the kind.
    public static func all(_ kind: TimeKind) -> TimeSet { TimeSet(kind, bits: kind.definedBits) }

    /// The set of `microseconds`; `nil` if one of them is not a time of this kind.
    /// The mandatory value may be listed and needs no bit.
    public init?(_ kind: TimeKind, microseconds: some Sequence<UInt16>) {
        var set = TimeSet(kind)
        for us in microseconds {
            guard set.insert(us) else { return nil }
        }
        self = set
    }

    /// Whether `microseconds` is supported (the mandatory value always is).
    public func contains(_ microseconds: UInt16) -> Bool {
        guard let i = kind.index(ofMicroseconds: microseconds) else { return false }
        return contains(index: i)
    }

    /// Whether table index `index` is supported (the mandatory index always is).
    @inline(__always) public func contains(index: Int) -> Bool {
        if index == kind.optionalCount { return true }
        guard index >= 0 && index < kind.optionalCount else { return false }
        return bits & (1 << UInt16(index)) != 0
    }

    /// Adds `microseconds`; returns `false` (and changes nothing) if it is not a time of this kind.
    @discardableResult
    public mutating func insert(_ microseconds: UInt16) -> Bool {
        guard let i = kind.index(ofMicroseconds: microseconds) else { return false }
        if i < kind.optionalCount { bits |= 1 << UInt16(i) }
        return true
    }

    /// Removes an optional time; the mandatory time cannot be removed.
    public mutating func remove(_ microseconds: UInt16) {
        guard let i = kind.index(ofMicroseconds: microseconds), i < kind.optionalCount else { return }
        bits &= ~(1 << UInt16(i))
    }

    /// The supported times in ascending order, the mandatory one included (for tools and tests).
    public var microseconds: [UInt16] {
        var out: [UInt16] = []
        for i in 0..<kind.valueCount where contains(index: i) {
            if let us = kind.microseconds(atIndex: i) { out.append(us) }
        }
        return out
    }

    /// Whether bits other than the defined ones are set.
    public var hasReservedBits: Bool { bits & ~kind.definedBits != 0 }

    /// The smallest time both sets support, as NimBLE's `ble_ll_cs_select_capability` picks it
    /// (lowest common index of local ∪ mandatory and remote ∪ mandatory). Never fails: the
    /// mandatory time is common to all sets. Allocation-free.
    public func smallestCommon(with other: TimeSet) -> UInt16 {
        for i in 0..<kind.valueCount where contains(index: i) && other.contains(index: i) {
            if let us = kind.microseconds(atIndex: i) { return us }
        }
        return kind.mandatoryMicroseconds
    }
}
