import ReflectorFirmware

/// A device's RF switch on the Air: which antenna is connected now (the Air reads it when the
/// device sends or measures), and optionally every selection with its time, for tests that
/// check the engine's antenna order. Recording is off by default so long runs do not grow an
/// array per step.
public struct AirAntennaSwitch: AntennaSwitch, Sendable, Equatable {
    public struct Selection: Sendable, Equatable {
        public var antenna: UInt8
        public var time: UInt64
    }

    /// The connected antenna, 1-based.
    public private(set) var antenna: UInt8 = 1
    /// When it was connected, µs.
    public private(set) var switchTime: UInt64 = 0
    public var recordsSelections: Bool
    /// Every selection, when `recordsSelections` is set.
    public private(set) var selections: [Selection] = []

    public init(recordsSelections: Bool = false) { self.recordsSelections = recordsSelections }

    public mutating func select(antenna: UInt8, at time: UInt64) {
        self.antenna = antenna
        switchTime = time
        if recordsSelections { selections.append(Selection(antenna: antenna, time: time)) }
    }
}
