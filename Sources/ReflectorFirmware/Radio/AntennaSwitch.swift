/// Selects one of the device's antennas, as a board does through its RF switch GPIOs. The step
/// engine calls it at the start of every T_SW slot the plan gives (Core 6.0 Vol 6 Part H §4.x);
/// the switch must settle within T_SW.
public protocol AntennaSwitch {
    /// Connects antenna `antenna` (1-based, as HCI numbers antennas) from `time` (µs on the
    /// controller's clock) on.
    mutating func select(antenna: UInt8, at time: UInt64)
}
