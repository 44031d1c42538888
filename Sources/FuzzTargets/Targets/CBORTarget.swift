import MCUboot

/// CBOR as MCUboot's SMP bodies use it (`CBORDecoder`).
///
/// Checks: a decoded value encodes (with definite and with indefinite-length maps) to octets
/// that decode to the same value.
enum CBORTarget {
    static let target = FuzzTarget("cbor", "CBORDecoder: SMP bodies, re-encoded both ways", seeds: { SeedVectors.smpPackets.map(\.payload) }) { bytes in
        guard let value = try? CBORDecoder.decode(bytes) else { return }
        require((try? CBORDecoder.decode(CBOREncoder.encode(value))) == value, "value does not decode from its encoding")
        require((try? CBORDecoder.decode(CBOREncoder.encode(value, indefiniteLengthMaps: true))) == value,
                "value does not decode from its indefinite-length encoding")
    }
}
