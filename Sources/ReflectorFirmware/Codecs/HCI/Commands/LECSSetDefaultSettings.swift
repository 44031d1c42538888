import WireFormat

/// LE CS Set Default Settings: the host enables CS roles for a connection and gives its
/// CS_SYNC antenna and power preferences (Core 6.0 Vol 4 Part E §7.8.134). Command Complete
/// returns Status and Connection_Handle.
///
/// 5 octets: `Connection_Handle 2 | Role_Enable 1 (bit0 initiator, bit1 reflector) |
/// CS_SYNC_Antenna_Selection 1 (1–4 antenna ID, 0xFE repetitive, 0xFF no recommendation) |
/// Max_TX_Power int8 dBm (−127...20)`.
public struct LECSSetDefaultSettings: HCICommand {
    public static let opcode: UInt16 = HCIOpcode.leCSSetDefaultSettings
    public static let name: StaticString = "LE CS Set Default Settings"
    public static let parameterLength = 5

    public var connectionHandle: UInt16
    public var initiatorEnabled: Bool
    public var reflectorEnabled: Bool
    public var csSyncAntennaSelection: UInt8
    public var maxTxPower: Int8

    public init(connectionHandle: UInt16, initiatorEnabled: Bool = false, reflectorEnabled: Bool = true,
                csSyncAntennaSelection: UInt8 = 0xFF, maxTxPower: Int8 = 20) {
        self.connectionHandle = connectionHandle
        self.initiatorEnabled = initiatorEnabled
        self.reflectorEnabled = reflectorEnabled
        self.csSyncAntennaSelection = csSyncAntennaSelection
        self.maxTxPower = maxTxPower
    }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u8((initiatorEnabled ? 1 : 0) | (reflectorEnabled ? 2 : 0))
        w.u8(csSyncAntennaSelection)
        w.i8(maxTxPower)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSSetDefaultSettings {
        let h = try r.connectionHandle()
        let roles = try r.u8("Role_Enable")
        guard roles <= 3 else { throw .invalidValue(field: "Role_Enable", value: Int(roles)) }
        let antenna = try r.u8("CS_SYNC_Antenna_Selection")
        guard (1...4).contains(antenna) || antenna >= 0xFE else {
            throw .invalidValue(field: "CS_SYNC_Antenna_Selection", value: Int(antenna))
        }
        let power = try r.i8("Max_TX_Power")
        guard power >= -127 && power <= 20 else { throw .invalidValue(field: "Max_TX_Power", value: Int(power)) }
        return LECSSetDefaultSettings(connectionHandle: h, initiatorEnabled: roles & 1 != 0, reflectorEnabled: roles & 2 != 0,
                                      csSyncAntennaSelection: antenna, maxTxPower: power)
    }
}
