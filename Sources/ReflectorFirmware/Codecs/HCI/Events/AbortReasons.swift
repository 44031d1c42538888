import WireFormat

/// The Abort_Reason octet of a subevent result: procedure abort reason in the low nibble,
/// subevent abort reason in the high nibble (Core 6.0 Vol 4 Part E §7.7.65.44). RAS carries the
/// same two values in the same nibbles of its subevent header.
public struct AbortReasons: Sendable, Equatable, Hashable {
    public var procedure: ProcedureAbortReason
    public var subevent: SubeventAbortReason

    public init(procedure: ProcedureAbortReason = .none, subevent: SubeventAbortReason = .none) {
        (self.procedure, self.subevent) = (procedure, subevent)
    }

    public static let none = AbortReasons()

    /// Parses the octet; a nibble outside its enumeration is `.invalidValue`.
    public init(octet: UInt8) throws(DecodeError) {
        guard let p = ProcedureAbortReason(rawValue: octet & 0x0F), let s = SubeventAbortReason(rawValue: octet >> 4) else {
            throw .invalidValue(field: "Abort_Reason", value: Int(octet))
        }
        self.init(procedure: p, subevent: s)
    }

    public var octet: UInt8 { procedure.rawValue | subevent.rawValue << 4 }
}
