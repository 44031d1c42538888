import WireFormat

/// LE CS Set Channel Classification: the host marks CS channels it considers bad; the
/// controller leaves them out of the filtered channel map (Core 6.0 Vol 4 Part E §7.8.139).
/// Parameters: `Channel_Classification 10` (bit k = CS channel k, as in a channel map).
/// Command Complete returns Status only.
public struct LECSSetChannelClassification: HCICommand {
    public static let opcode: UInt16 = HCIOpcode.leCSSetChannelClassification
    public static var name: StaticString { "LE CS Set Channel Classification" }
    public var classification: ChannelMap

    public init(classification: ChannelMap) { self.classification = classification }

    public func encodeParameters(into w: inout ByteWriter) { w.octets(classification.wire) }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSSetChannelClassification {
        let map = ChannelMap(wire: try r.octets(10, "Channel_Classification"))
        return LECSSetChannelClassification(classification: map)
    }
}
