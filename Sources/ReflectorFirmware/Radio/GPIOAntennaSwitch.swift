/// An antenna switch driven by GPIO patterns, one per antenna, as a board profile in
/// `Hardware/boards` lists them: the step engine's antenna choice becomes a pin write that
/// must settle within T_SW.
public struct GPIOAntennaSwitch<Port: GPIOPort>: AntennaSwitch {
    public var port: Port
    /// Number of antennas (1...4).
    public let antennas: Int
    /// The pins the switch uses.
    public let mask: UInt32
    private var patterns: InlineArray<4, UInt32>
    /// The antenna selected last (1-based).
    public private(set) var current: UInt8 = 0
    /// Requests for an antenna the board does not have; they select antenna 1 instead.
    public private(set) var invalidRequests = 0

    /// `patterns[k]` selects antenna k + 1; extra entries beyond four are ignored.
    public init(port: Port, mask: UInt32, patterns: [UInt32]) {
        self.port = port
        self.mask = mask
        antennas = max(1, min(4, patterns.count))
        var p = InlineArray<4, UInt32>(repeating: 0)
        for (k, v) in patterns.prefix(4).enumerated() { p[k] = v & mask }
        self.patterns = p
    }

    public mutating func select(antenna: UInt8, at time: UInt64) {
        var a = antenna
        if a < 1 || Int(a) > antennas {
            invalidRequests += 1
            a = 1
        }
        guard a != current else { return }
        current = a
        port.write(pattern: patterns[Int(a) - 1], mask: mask, at: time)
    }
}
