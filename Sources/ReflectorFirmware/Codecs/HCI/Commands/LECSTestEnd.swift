import WireFormat

/// LE CS Test End: the host stops a CS test started with LE CS Test (Core 6.0 Vol 4 Part E
/// §7.8.143). No parameters; answered with Command Status (§7.8.143, "Events generated"; RootCanal's
/// `LeCsTestEndStatus` and Bumble's `HCI_AsyncCommand` agree), then LE Meta event 0x33.
public struct LECSTestEnd: HCICommand {
    public static let opcode: UInt16 = HCIOpcode.leCSTestEnd
    public static var name: StaticString { "LE CS Test End" }
    public static var answer: HCICommandAnswer { .status }

    public init() {}

    public func encodeParameters(into w: inout ByteWriter) {}

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSTestEnd { LECSTestEnd() }
}
