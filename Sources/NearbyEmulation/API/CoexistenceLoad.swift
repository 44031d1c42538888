/// Other Bluetooth and Wi-Fi activity on the phone, which shares the 2.4 GHz radio with Channel
/// Sounding. iOS says it may lower the measurement rate as that activity grows; the emulated
/// phone does so by stretching the procedure interval by `rateDivisor` (LE CS Set Procedure
/// Parameters with a longer Min_Procedure_Interval), so procedures come that many times less often.
public struct CoexistenceLoad: Sendable, Equatable, CustomStringConvertible {
    /// How many times fewer procedures per second than without load (1 to 16).
    public let rateDivisor: Int

    /// nil when `rateDivisor` is outside 1...16.
    public init?(rateDivisor: Int) {
        guard (1...16).contains(rateDivisor) else { return nil }
        self.rateDivisor = rateDivisor
    }

    /// Nothing else on the radio.
    public static let none = CoexistenceLoad(rateDivisor: 1)!
    /// Audio streaming to earbuds, or a busy Wi-Fi link: half the rate.
    public static let moderate = CoexistenceLoad(rateDivisor: 2)!
    /// Audio plus a Wi-Fi hotspot or a large transfer: a quarter of the rate.
    public static let heavy = CoexistenceLoad(rateDivisor: 4)!

    public var description: String { rateDivisor == 1 ? "none" : "1/\(rateDivisor) rate" }
}
