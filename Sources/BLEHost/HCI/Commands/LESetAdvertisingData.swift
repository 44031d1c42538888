import ReflectorFirmware

/// LE Set Advertising Data (0x2008, Core 6.0 Vol 4 Part E §7.8.7): legacy advertising data,
/// `Advertising_Data_Length 1 | Advertising_Data 31` (`LegacyAdvertisingDataCommand`).
public struct LESetAdvertisingData: LegacyAdvertisingDataCommand {
    public static let opcode = HCIOpcode.leSetAdvertisingData
    public static var lengthField: StaticString { "Advertising_Data_Length" }
    public static var dataField: StaticString { "Advertising_Data" }

    public var data: [UInt8]

    public init(data: [UInt8]) { self.data = data }
}
