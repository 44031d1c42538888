/// The Antenna Configuration Index (ACI, `Tone_Antenna_Config_Selection` 0...7) of Set Procedure
/// Parameters: how many antennas each side uses and the number of antenna paths N_AP
/// (Core 6.0 Vol 6 Part H §3.x, Table 3.x; TI `csACI_e`, NimBLE `aci_table`).
public struct AntennaConfiguration: Sendable, Equatable {
    public let index: UInt8

    /// `nil` when `index` is outside 0...7.
    public init?(index: UInt8) {
        guard index <= 7 else { return nil }
        self.index = index
    }

    /// Antennas the initiator uses.
    public var initiatorAntennas: Int {
        switch index {
        case 1: return 2
        case 2: return 3
        case 3: return 4
        case 7: return 2
        default: return 1
        }
    }
    /// Antennas the reflector uses.
    public var reflectorAntennas: Int {
        switch index {
        case 4: return 2
        case 5: return 3
        case 6: return 4
        case 7: return 2
        default: return 1
        }
    }
    /// N_AP: the number of antenna paths, initiator antennas × reflector antennas.
    public var antennaPaths: Int { initiatorAntennas * reflectorAntennas }
}
