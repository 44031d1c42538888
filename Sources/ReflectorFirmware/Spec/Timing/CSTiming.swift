/// The selectable times of a CS procedure, in microseconds (Core 6.0 Vol 6 Part H §4.x):
/// T_IP1 between the CS_SYNC packets of a step, T_IP2 between its tone groups, T_FCS for the
/// frequency change between steps, T_PM per tone slot, and T_SW for each antenna switch.
/// Config Complete reports the first four; T_SW follows from the ACI and both sides' capabilities.
public struct CSTiming: Sendable, Equatable, Hashable {
    public var tIP1: UInt16
    public var tIP2: UInt16
    public var tFCS: UInt16
    public var tPM: UInt16
    public var tSW: UInt16

    /// Defaults are the mandatory values every controller supports: 145, 145, 150, 40 µs, no switch.
    public init(tIP1: UInt16 = 145, tIP2: UInt16 = 145, tFCS: UInt16 = 150, tPM: UInt16 = 40, tSW: UInt16 = 0) {
        self.tIP1 = tIP1
        self.tIP2 = tIP2
        self.tFCS = tFCS
        self.tPM = tPM
        self.tSW = tSW
    }
}
