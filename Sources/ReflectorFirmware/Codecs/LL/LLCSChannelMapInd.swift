import WireFormat

/// LL_CS_CHANNEL_MAP_IND (opcode 0x38, 12 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.53,
/// best knowledge): sent by the central after LE CS Set Channel Classification to switch both
/// sides to a new CS channel map at connection event Instant (the CS Channel Map Update
/// procedure).
///
/// Layout: `Channel_Map 10 | Instant 2 (LE)` (Telink `rf_pkt_ll_cs_chn_map_ind_t`, NimBLE's
/// length table 12). The map uses the HCI bit layout (`ChannelMap.wire`); the decoder keeps all
/// 80 bits as sent (the receiver AND-s it with the allowed channels when it filters).
public struct LLCSChannelMapInd: LLControlBody {
    public static let opcode = LLControlOpcode.csChannelMapInd

    public var channelMap: ChannelMap
    /// The ACL connection event counter at which the map takes effect.
    public var instant: UInt16

    public init(channelMap: ChannelMap, instant: UInt16) {
        (self.channelMap, self.instant) = (channelMap, instant)
    }

    public func encodeBody(into w: inout ByteWriter) {
        w.octets(channelMap.wire)
        w.u16(instant)
    }

    public static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSChannelMapInd {
        let map = ChannelMap(wire: try r.octets(10, "Channel_Map"))
        return LLCSChannelMapInd(channelMap: map, instant: try r.u16("Instant"))
    }
}
