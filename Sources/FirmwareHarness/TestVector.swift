#if !FIRMWARE_IMAGE
import ReflectorFirmware
#endif
import WireFormat

/// One test vector as the host sends it to the firmware test image: the reflector's CS
/// configuration with its timing and antenna configuration, the procedures' schedule, the
/// security material both controllers instantiate the DRBG from, and what the reflector's radio
/// hears (`ReceptionPool`). Every field is checked on the way in: a vector is outside input.
public struct TestVector: Sendable {
    public var configuration: CSConfiguration
    public var antennaConfiguration: AntennaConfiguration
    public var schedule: ProcedureSchedule
    /// Procedures to run, 1...`maxProcedures`.
    public var procedures: Int
    public var security: SecurityMaterial
    public var receptions: ReceptionPool

    public static let maxProcedures = 8
    /// The Configuration payload's size.
    public static let configurationLength = 47

    public init(configuration: CSConfiguration, antennaConfiguration: AntennaConfiguration, schedule: ProcedureSchedule,
                procedures: Int, security: SecurityMaterial, receptions: ReceptionPool) {
        self.configuration = configuration
        self.antennaConfiguration = antennaConfiguration
        self.schedule = schedule
        self.procedures = procedures
        self.security = security
        self.receptions = receptions
    }

    /// The Configuration payload (layout in docs/firmware.md, "The framed format": modes, step
    /// counts, RTT type, PHY, channel map, selection, inline PCT, the five times, ACI, schedule,
    /// procedures).
    public static func encodeConfiguration(_ c: CSConfiguration, aci: AntennaConfiguration, schedule s: ProcedureSchedule, procedures: Int) -> [UInt8] {
        var w = ByteWriter(capacity: configurationLength)
        CSConfigurationFields.encodeModes(c, into: &w)
        w.u8(c.rttType.rawValue)
        w.u8(c.csSyncPHY.rawValue)
        CSConfigurationFields.encodeChannelMap(c, into: &w)
        switch c.channelSelection {
        case .algorithm3b: w.octets([0, 0, 0])
        case .algorithm3c(let shape, let jump): w.octets([1, shape.rawValue, jump])
        }
        w.u8(c.inlinePCT ? 1 : 0)
        for t in [c.timing.tIP1, c.timing.tIP2, c.timing.tFCS, c.timing.tPM, c.timing.tSW] { w.u16(t) }
        w.u8(aci.index)
        w.u32(s.subeventLength)
        w.u32(s.subeventInterval)
        w.u32(s.maxProcedureLength)
        w.u8(UInt8(truncatingIfNeeded: procedures))
        return w.bytes
    }

    /// Decodes a Configuration payload; the error's offset names the first field refused.
    public static func decodeConfiguration(_ payload: [UInt8]) throws(PayloadError)
        -> (CSConfiguration, AntennaConfiguration, ProcedureSchedule, Int) {
        guard payload.count == configurationLength else { throw PayloadError(offset: payload.count) }
        var r = ByteReader(payload)
        func u8(_ allowed: ClosedRange<UInt8>) throws(PayloadError) -> UInt8 {
            let at = r.offset
            guard let v = try? r.u8("field"), allowed.contains(v) else { throw PayloadError(offset: at) }
            return v
        }
        func u16() throws(PayloadError) -> UInt16 {
            let at = r.offset
            guard let v = try? r.u16("field") else { throw PayloadError(offset: at) }
            return v
        }
        func u32(_ allowed: ClosedRange<UInt32>) throws(PayloadError) -> UInt32 {
            let at = r.offset
            guard let v = try? r.u32("field"), allowed.contains(v) else { throw PayloadError(offset: at) }
            return v
        }
        guard let mainMode = CSMode(rawValue: try u8(1...3)) else { throw PayloadError(offset: 0) }
        let subRaw = try u8(0...255)
        let subMode: CSMode? = subRaw == 0xFF ? nil : CSMode(rawValue: subRaw)
        guard subRaw == 0xFF || ((1...3).contains(subRaw) && subRaw != mainMode.rawValue) else { throw PayloadError(offset: 1) }
        let minMain = try u8(subMode == nil ? 0...255 : CSConfiguration.mainModeStepsRange)
        let maxMain = try u8(subMode == nil ? 0...255 : max(minMain, 2)...255)
        let repetition = try u8(CSConfiguration.mainModeRepetitionRange)
        let mode0Steps = try u8(CSConfiguration.mode0StepsRange)
        guard let rtt = RTTType(rawValue: try u8(0...255)) else { throw PayloadError(offset: 6) }
        guard let phy = CSSyncPHY(rawValue: try u8(0...255)) else { throw PayloadError(offset: 7) }
        let mapAt = r.offset
        guard let mapOctets = try? r.octets(10, "Channel_Map") else { throw PayloadError(offset: mapAt) }
        let map = ChannelMap(wire: mapOctets)
        let mapRepetition = try u8(CSConfiguration.channelMapRepetitionRange)
        let selectionType = try u8(0...1)
        let shapeRaw = try u8(0...1)
        let jump = try u8(selectionType == 0 ? 0...255 : CSConfiguration.ch3cJumpRange)
        let selection: ChannelSelectionAlgorithm = selectionType == 0
            ? .algorithm3b : .algorithm3c(shape: Ch3cShape(rawValue: shapeRaw) ?? .hat, jump: jump)
        let inline = try u8(0...1) == 1
        var times: [UInt16] = []
        for kind in [TimeKind.tIP1, .tIP2, .tFCS, .tPM] {
            let at = r.offset
            let us = try u16()
            guard kind.index(ofMicroseconds: us) != nil else { throw PayloadError(offset: at) }
            times.append(us)
        }
        let swAt = r.offset
        let tSW = try u16()
        guard [0, 1, 2, 4, 10].contains(tSW) else { throw PayloadError(offset: swAt) }
        guard let aci = AntennaConfiguration(index: try u8(0...7)) else { throw PayloadError(offset: 33) }
        let length = try u32(CSConfigurationValidator.subeventLengthRange)
        let interval = try u32(0...40_000_000)
        let maxLength = try u32(1...40_000_000)
        let procedures = Int(try u8(1...UInt8(maxProcedures)))
        let c = CSConfiguration(
            mainMode: mainMode, subMode: subMode, minMainModeSteps: minMain, maxMainModeSteps: maxMain,
            mainModeRepetition: repetition, mode0Steps: mode0Steps, role: .reflector, rttType: rtt, csSyncPHY: phy,
            channelMap: map, channelMapRepetition: mapRepetition, channelSelection: selection, inlinePCT: inline,
            timing: CSTiming(tIP1: times[0], tIP2: times[1], tFCS: times[2], tPM: times[3], tSW: tSW))
        let schedule = ProcedureSchedule(subeventLength: length, subeventInterval: interval, maxProcedureLength: maxLength)
        return (c, aci, schedule, procedures)
    }
}
