import WireFormat

/// The runs of the CS capabilities that the HCI block (Core 6.0 Vol 4 Part E §7.8.130) and the
/// LL body of LL_CS_CAPABILITIES_REQ/RSP (Vol 6 Part B §2.4.2.44) lay out alike, each written
/// and read in this one place, and the value checks both decoders make:
///
/// - the modes, RTT and NADM run, 10 octets: `Modes_Supported | RTT_Capability | RTT_AA_Only_N |
///   RTT_Sounding_N | RTT_Random_Payload_N | NADM_Sounding_Capability 2 |
///   NADM_Random_Capability 2 | CS_SYNC_PHYs_Supported` (HCI octets 6-15, LL octets 0-9);
/// - the time bitmaps, 8 octets: `T_IP1 2 | T_IP2 2 | T_FCS 2 | T_PM 2` (HCI octets 18-25,
///   LL octets 16-23).
///
/// Field names in decode errors are the HCI ones. Bitmaps keep RFU bits.
enum CSCapabilitiesFields {
    // MARK: Modes, RTT and NADM

    static func encodeModesRTTAndNADM(_ c: CSCapabilities, into w: inout ByteWriter) {
        w.u8(c.optionalModes.rawValue)
        w.u8(c.rttPrecision.rawValue)
        w.u8(c.rttAccessAddressOnlyN)
        w.u8(c.rttSoundingN)
        w.u8(c.rttRandomSequenceN)
        w.u16(c.nadmSounding.rawValue)
        w.u16(c.nadmRandomSequence.rawValue)
        w.u8(c.syncPHYs.rawValue)
    }

    static func decodeModesRTTAndNADM(into c: inout CSCapabilities, from r: inout ByteReader) throws(DecodeError) {
        c.optionalModes = CSOptionalModes(rawValue: try r.u8("Modes_Supported"))
        c.rttPrecision = RTTPrecision(rawValue: try r.u8("RTT_Capability"))
        c.rttAccessAddressOnlyN = try r.u8("RTT_AA_Only_N")
        c.rttSoundingN = try r.u8("RTT_Sounding_N")
        c.rttRandomSequenceN = try r.u8("RTT_Random_Payload_N")
        c.nadmSounding = NADMCapability(rawValue: try r.u16("NADM_Sounding_Capability"))
        c.nadmRandomSequence = NADMCapability(rawValue: try r.u16("NADM_Random_Capability"))
        c.syncPHYs = CSSyncPHYs(rawValue: try r.u8("CS_SYNC_PHYs_Supported"))
    }

    // MARK: Time bitmaps

    static func encodeTimes(_ c: CSCapabilities, into w: inout ByteWriter) {
        w.u16(c.tIP1Times.bits)
        w.u16(c.tIP2Times.bits)
        w.u16(c.tFCSTimes.bits)
        w.u16(c.tPMTimes.bits)
    }

    static func decodeTimes(into c: inout CSCapabilities, from r: inout ByteReader) throws(DecodeError) {
        c.tIP1Times = TimeSet(.tIP1, bits: try r.u16("T_IP1_Times_Supported"))
        c.tIP2Times = TimeSet(.tIP2, bits: try r.u16("T_IP2_Times_Supported"))
        c.tFCSTimes = TimeSet(.tFCS, bits: try r.u16("T_FCS_Times_Supported"))
        c.tPMTimes = TimeSet(.tPM, bits: try r.u16("T_PM_Times_Supported"))
    }

    // MARK: Value checks

    /// Configurations, antennas and antenna paths: 1...4, else `.invalidValue`.
    static func count(_ v: UInt8, _ field: StaticString) throws(DecodeError) -> UInt8 {
        guard v >= 1 && v <= 4 else { throw .invalidValue(field: field, value: Int(v)) }
        return v
    }
}
