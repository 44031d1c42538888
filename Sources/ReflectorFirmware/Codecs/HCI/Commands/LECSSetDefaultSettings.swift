import WireFormat

/// LE CS Set Default Settings: the host enables CS roles for a connection and gives its
/// CS_SYNC antenna and power preferences (Core 6.0 Vol 4 Part E §7.8.134). Command Complete
/// returns Status and Connection_Handle.
///
/// 5 octets: `Connection_Handle 2 | Role_Enable 1 (bit0 initiator, bit1 reflector) |
/// CS_SYNC_Antenna_Selection 1 (1–4 antenna ID, 0xFE repetitive, 0xFF no recommendation) |
/// Max_TX_Power int8 dBm (−127...20)`.
public struct LECSSetDefaultSettings: HCICommand, HCIFieldWalk {
    public static let opcode: UInt16 = HCIOpcode.leCSSetDefaultSettings
    public static var name: StaticString { "LE CS Set Default Settings" }
    public typealias ReturnParameters = StatusConnectionHandleReturn
    public static let parameterLength = 5

    public var connectionHandle: UInt16
    public var initiatorEnabled: Bool
    public var reflectorEnabled: Bool
    public var csSyncAntennaSelection: UInt8
    public var maxTxPower: Int8

    public init(connectionHandle: UInt16, initiatorEnabled: Bool = false, reflectorEnabled: Bool = true,
                csSyncAntennaSelection: UInt8 = 0xFF, maxTxPower: Int8 = 20) {
        (self.connectionHandle, self.initiatorEnabled, self.reflectorEnabled) = (connectionHandle, initiatorEnabled, reflectorEnabled)
        (self.csSyncAntennaSelection, self.maxTxPower) = (csSyncAntennaSelection, maxTxPower)
    }

    public static var blank: Self { Self(connectionHandle: 0) }

    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.connectionHandle(&connectionHandle)
        var roles: UInt8 = (initiatorEnabled ? 1 : 0) | (reflectorEnabled ? 2 : 0)
        try c.u8(&roles, "Role_Enable", in: 0...3)
        (initiatorEnabled, reflectorEnabled) = (roles & 1 != 0, roles & 2 != 0)
        try c.u8(&csSyncAntennaSelection, "CS_SYNC_Antenna_Selection")
        try c.require((1...4).contains(csSyncAntennaSelection) || csSyncAntennaSelection >= 0xFE, "CS_SYNC_Antenna_Selection", Int(csSyncAntennaSelection))
        try c.i8(&maxTxPower, "Max_TX_Power")
        try c.require(maxTxPower >= -127 && maxTxPower <= 20, "Max_TX_Power", Int(maxTxPower))
    }

}
