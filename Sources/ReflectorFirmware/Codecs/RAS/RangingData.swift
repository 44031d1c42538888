import WireFormat

/// The RAS ranging data of one CS procedure, the body that the Real-time and On-demand Ranging
/// Data characteristics carry in segments (RAS 1.0 §3.2.1.2): a `RangingHeader` then the
/// subevents back to back until the end of the body.
///
/// Decoding needs the sender's role (mode-0 data is 3 octets from a reflector, 5 from an
/// initiator), N_AP (taken from Antenna_Paths_Mask unless given) and whether mode-1/3 steps
/// carry PCT1/PCT2.
public struct RangingData: Sendable, Equatable {
    public var header: RangingHeader
    public var subevents: [RangingSubevent]

    public init(header: RangingHeader, subevents: [RangingSubevent]) {
        (self.header, self.subevents) = (header, subevents)
    }

    /// The RAS form of a procedure's HCI subevent results (each already reassembled).
    /// Ranging_Counter is the low 12 bits of the first result's Procedure_Counter; the
    /// antenna-paths mask is `(1 << N_AP) − 1` from the first result's Num_Antenna_Paths.
    public init(selectedTxPower: Int8, results: [LECSSubeventResult]) {
        let first = results.first
        header = RangingHeader(
            rangingCounter: first?.procedureCounter ?? 0, configID: first?.configID ?? 0, selectedTxPower: selectedTxPower,
            antennaPathsMask: RangingHeader.mask(antennaPaths: Int(first?.numAntennaPaths ?? 0)))
        subevents = results.map { RangingSubevent($0) }
    }

    public var encodedLength: Int {
        var n = RangingHeader.encodedLength
        for s in subevents { n += s.encodedLength }
        return n
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: encodedLength)
        header.encode(into: &w)
        for s in subevents { s.encode(into: &w) }
        return w.bytes
    }

    /// Parses a whole reassembled body. `antennaPaths` overrides the count from the header mask.
    public static func decode(_ bytes: some Collection<UInt8>, senderRole: CSRole = .reflector, sequencePCT: Bool = false,
                              antennaPaths: Int? = nil) throws(DecodeError) -> RangingData {
        var r = ByteReader(bytes)
        let h = try RangingHeader.decode(from: &r)
        let context = StepDataContext(role: senderRole, antennaPaths: antennaPaths ?? h.antennaPaths, sequencePCT: sequencePCT)
        var subevents: [RangingSubevent] = []
        while !r.isAtEnd { subevents.append(try RangingSubevent.decode(context: context, from: &r)) }
        return RangingData(header: h, subevents: subevents)
    }
}
