import WireFormat

/// Packet_PCT1 and Packet_PCT2 of a mode-1/3 step: phase correction terms measured on the
/// sounding sequence when phase-based ranging from the RTT sounding sequence is used
/// (Core 6.0 Vol 4 Part E §7.7.65.44; Zephyr `_ss_rtt` step structs). Each is 4 octets holding a
/// 24-bit PCT; 0xFFFFFFFF = not available (`nil`). The decoder ignores the top octet otherwise.
public struct SequencePhaseCorrection: Sendable, Equatable, Hashable {
    public var pct1: PhaseCorrectionTerm?
    public var pct2: PhaseCorrectionTerm?

    public init(pct1: PhaseCorrectionTerm?, pct2: PhaseCorrectionTerm?) {
        (self.pct1, self.pct2) = (pct1, pct2)
    }

    public static let encodedLength = 8

    func encode(into w: inout ByteWriter) {
        w.u32(pct1?.packed ?? 0xFFFF_FFFF)
        w.u32(pct2?.packed ?? 0xFFFF_FFFF)
    }

    static func decode(from r: inout ByteReader) throws(DecodeError) -> SequencePhaseCorrection {
        let a = try r.u32("Packet_PCT1")
        let b = try r.u32("Packet_PCT2")
        return SequencePhaseCorrection(
            pct1: a == 0xFFFF_FFFF ? nil : PhaseCorrectionTerm(packed: a),
            pct2: b == 0xFFFF_FFFF ? nil : PhaseCorrectionTerm(packed: b))
    }
}
