import WireFormat

/// LE CS Set Procedure Parameters: the host gives a configuration its procedure timing,
/// antennas and power (Core 6.0 Vol 4 Part E §7.8.140). Command Complete returns Status and
/// Connection_Handle.
///
/// 23 octets: `Connection_Handle 2 | Config_ID 1 | Max_Procedure_Len 2 | Min_Procedure_Interval 2 |
/// Max_Procedure_Interval 2 | Max_Procedure_Count 2 | Min_Subevent_Len 3 | Max_Subevent_Len 3 |
/// Tone_Antenna_Config_Selection 1 | PHY 1 | Tx_Power_Delta int8 (0x80 none) |
/// Preferred_Peer_Antenna 1 | SNR_Control_Initiator 1 | SNR_Control_Reflector 1 (0...4, 0xFF none)`.
public struct LECSSetProcedureParameters: HCICommand {
    public static let opcode: UInt16 = HCIOpcode.leCSSetProcedureParameters
    public static var name: StaticString { "LE CS Set Procedure Parameters" }
    public typealias ReturnParameters = StatusConnectionHandleReturn
    public static let parameterLength = 23

    public var connectionHandle: UInt16
    public var configID: UInt8
    public var parameters: ProcedureParameters

    public init(connectionHandle: UInt16, configID: UInt8, parameters: ProcedureParameters) {
        (self.connectionHandle, self.configID, self.parameters) = (connectionHandle, configID, parameters)
    }

    public func encodeParameters(into w: inout ByteWriter) {
        let p = parameters
        w.u16(connectionHandle)
        w.u8(configID)
        w.u16(p.maxProcedureLength)
        w.u16(p.minProcedureInterval)
        w.u16(p.maxProcedureInterval)
        w.u16(p.maxProcedureCount)
        w.u24(p.minSubeventLength)
        w.u24(p.maxSubeventLength)
        w.u8(p.antennaConfiguration.index)
        w.u8(p.phy)
        w.u8(p.txPowerDelta.map { UInt8(bitPattern: $0) } ?? 0x80)
        w.u8(p.preferredPeerAntenna)
        w.u8(p.snrControlInitiator ?? 0xFF)
        w.u8(p.snrControlReflector ?? 0xFF)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSSetProcedureParameters {
        let h = try r.connectionHandle()
        let id = try r.configID()
        let maxLen = try r.u16("Max_Procedure_Len")
        let minInterval = try r.u16("Min_Procedure_Interval")
        let maxInterval = try r.u16("Max_Procedure_Interval")
        let count = try r.u16("Max_Procedure_Count")
        let minSub = try r.u24("Min_Subevent_Len")
        let maxSub = try r.u24("Max_Subevent_Len")
        let aciRaw = try r.u8("Tone_Antenna_Config_Selection")
        guard let aci = AntennaConfiguration(index: aciRaw) else {
            throw .invalidValue(field: "Tone_Antenna_Config_Selection", value: Int(aciRaw))
        }
        let phy = try r.u8("PHY")
        guard (1...4).contains(phy) else { throw .invalidValue(field: "PHY", value: Int(phy)) }
        let delta = try r.i8("Tx_Power_Delta")
        let antenna = try r.u8("Preferred_Peer_Antenna")
        let snrI = try snr(&r, "SNR_Control_Initiator")
        let snrR = try snr(&r, "SNR_Control_Reflector")
        return LECSSetProcedureParameters(connectionHandle: h, configID: id, parameters: ProcedureParameters(
            maxProcedureLength: maxLen, minProcedureInterval: minInterval, maxProcedureInterval: maxInterval,
            maxProcedureCount: count, minSubeventLength: minSub, maxSubeventLength: maxSub,
            antennaConfiguration: aci, phy: phy, txPowerDelta: delta == Int8.min ? nil : delta,
            preferredPeerAntenna: antenna, snrControlInitiator: snrI, snrControlReflector: snrR))
    }

    private static func snr(_ r: inout ByteReader, _ field: StaticString) throws(DecodeError) -> UInt8? {
        let v = try r.u8(field)
        if v == 0xFF { return nil }
        guard v <= 4 else { throw .invalidValue(field: field, value: Int(v)) }
        return v
    }
}
