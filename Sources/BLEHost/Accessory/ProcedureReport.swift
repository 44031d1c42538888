import ReflectorFirmware

/// What the reflector measured in one CS procedure, as the accessory reports it (PCT
/// reporting): from the LE CS Subevent Result events of its own controller.
public struct ProcedureReport: Sendable, Equatable {
    public var procedureCounter: UInt16
    public var configID: UInt8
    public var subevents: Int
    /// Steps of mode 0, 1, 2 and 3.
    public var stepsByMode: [Int]
    /// Distinct channels the steps used.
    public var channels: Int
    /// Tone quality indicators of the mode-2 and mode-3 tones: high, medium, low, unavailable.
    public var toneQuality: [Int]
    /// The first subevent's Reference_Power_Level, dBm (0x7F: not available).
    public var referencePowerLevel: Int8
    /// The mean Packet_RSSI of the mode-0 steps, dBm (nil: none reported).
    public var meanRSSI: Double?
    /// The initiator's frequency offset as mode-0 steps measured it, 0.01 ppm (nil: not available).
    public var frequencyCompensation: Int16?
    public var doneStatus: ProcedureDoneStatus
    public var abortReasons: AbortReasons
    /// The reflector's own step results and its antenna paths: its PCTs, for a plot per channel.
    public var steps: [SubeventStep]
    public var antennaPaths: Int

    public init(_ p: ProcedureResults) {
        procedureCounter = p.procedureCounter
        configID = p.configID
        subevents = p.subevents.count
        var byMode = [0, 0, 0, 0], quality = [0, 0, 0, 0]
        var channelSet = Set<UInt8>()
        var rssiSum = 0, rssiCount = 0
        let all = p.steps
        for step in all {
            byMode[Int(step.mode.rawValue & 3)] += 1
            channelSet.insert(step.channel)
            switch step.data {
            case .mode0(let d):
                if d.packetRSSI != 0x7F {
                    rssiSum += Int(d.packetRSSI)
                    rssiCount += 1
                }
            case .mode2(let t), .mode3(_, let t):
                for tone in t.toneArray { quality[Int(tone.quality.quality.rawValue & 3)] += 1 }
            case .mode1: break
            }
        }
        stepsByMode = byMode
        channels = channelSet.count
        toneQuality = quality
        referencePowerLevel = p.subevents.first?.referencePowerLevel ?? 0x7F
        meanRSSI = rssiCount > 0 ? Double(rssiSum) / Double(rssiCount) : nil
        frequencyCompensation = p.frequencyCompensation
        doneStatus = p.subevents.last?.procedureDoneStatus ?? .complete
        abortReasons = p.subevents.last?.abortReasons ?? .none
        steps = all
        antennaPaths = p.antennaPaths
    }
}
