import ReflectorFirmware

extension CSCapabilities {
    /// The CS capabilities of the emulated phone's controller: an initiator (and reflector) on
    /// Core 6.3 with one or more antennas, mode 3, #3c and the 2M PHYs, and frequency-change
    /// spacing of 100 µs or more only: the phone sounds with T_FCS ≥ 100 µs, which is why iOS
    /// asks accessories to support it (WWDC26 session 369).
    public static func emulatedPhone(antennas: Int = 1) -> CSCapabilities {
        var c = CSCapabilities.projectReflector(antennas: antennas)
        c.tFCSTimes = TimeSet(.tFCS, microseconds: [100, 120]) ?? .mandatory(.tFCS)
        return c
    }
}
