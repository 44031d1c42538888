import ReflectorFirmware

/// The set-up panel's text for a CS configuration and its procedure parameters: the values a
/// person checks first (modes and steps, channels and their selection, inline PCT, times,
/// antennas, procedure length and interval), one per line.
enum CSSetupText {
    static func lines(configuration c: CSConfiguration, parameters p: ProcedureParameters) -> [String] {
        let modes = "mode \(c.mainMode.rawValue)" + (c.subMode.map { ", sub-mode \($0.rawValue)" } ?? ", no sub-mode")
        let channels = c.channelMap.low.nonzeroBitCount + c.channelMap.high.nonzeroBitCount
        let selection: String
        switch c.channelSelection {
        case .algorithm3b: selection = "#3b"
        case .algorithm3c(let shape, let jump): selection = "#3c (\(shape == .hat ? "hat" : "X"), jump \(jump))"
        }
        return [
            "configuration \(c.configID): main \(modes), \(c.minMainModeSteps)-\(c.maxMainModeSteps) main-mode steps, "
                + "\(c.mode0Steps) mode-0 steps, repetition \(c.mainModeRepetition)",
            "channels: \(channels) in the map, repeated \(c.channelMapRepetition)x, selection \(selection)",
            "RTT \(c.rttType), CS_SYNC PHY \(c.csSyncPHY), \(c.inlinePCT ? "inline PCT transfer" : "PCTs over RAS (no inline PCT)")",
            "times: T_IP1 \(c.timing.tIP1) µs, T_IP2 \(c.timing.tIP2) µs, T_FCS \(c.timing.tFCS) µs, T_PM \(c.timing.tPM) µs, T_SW \(c.timing.tSW) µs",
            "antenna configuration index \(p.antennaConfiguration.index): \(p.antennaConfiguration.initiatorAntennas) x "
                + "\(p.antennaConfiguration.reflectorAntennas) antennas",
            "procedures: at most \(p.maxProcedureLength) x 625 µs long, every \(p.minProcedureInterval)-\(p.maxProcedureInterval) "
                + "connection events, count \(p.maxProcedureCount == 0 ? "unlimited" : String(p.maxProcedureCount))",
        ]
    }
}
