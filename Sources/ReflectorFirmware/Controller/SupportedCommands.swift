/// The Supported_Commands bitmap this controller returns from Read Local Supported Commands
/// (Core 6.0 Vol 4 Part E §6.27): octet.bit for every command it answers. The CS positions are
/// the ones Bumble and Zephyr use (reference channel-sounding.md §1.1); the general ones are the
/// long-standing positions of the same table.
public enum SupportedCommands {
    public static let positions: [(octet: Int, bit: Int)] = [
        (5, 6), (5, 7),  // Set Event Mask, Reset
        (14, 3), (14, 5), (15, 1),  // Read Local Version, Read Local Supported Features, Read BD_ADDR
        (25, 0), (25, 1), (25, 2),  // LE Set Event Mask, LE Read Buffer Size, LE Read Local Supported Features
        (41, 5), (44, 0),  // LE Read Buffer Size v2, LE Set Host Feature
        (20, 5), (20, 6), (20, 7),  // LE CS Read Local / Read Remote / Write Cached Remote Supported Capabilities
        (24, 1), (24, 7),  // LE CS Security Enable, LE CS Set Default Settings
        (12, 2), (12, 3),  // LE CS Read Remote FAE Table, Write Cached Remote FAE Table
        (16, 6), (16, 7),  // LE CS Create Config, Remove Config
        (29, 0), (29, 1), (29, 2),  // LE CS Set Channel Classification, Set Procedure Parameters, Procedure Enable
        (49, 2),  // LE CS Read Local Supported Capabilities v2 (Core 6.3)
    ]

    /// The 64 octets.
    static var bitmap: [UInt8] { bitmap(adding: []) }

    /// The 64 octets with more commands marked (a controller that answers more than CS).
    public static func bitmap(adding extra: [(octet: Int, bit: Int)]) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: 64)
        for p in positions + extra where p.octet < 64 && p.bit < 8 { b[p.octet] |= 1 << UInt8(p.bit) }
        return b
    }
}
