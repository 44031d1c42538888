import ReflectorFirmware

/// LE Set Scan Response Data (0x2009, Core 6.0 Vol 4 Part E §7.8.8): legacy scan response data,
/// `Scan_Response_Data_Length 1 | Scan_Response_Data 31` (`LegacyAdvertisingDataCommand`).
public struct LESetScanResponseData: LegacyAdvertisingDataCommand {
    public static let opcode = HCIOpcode.leSetScanResponseData
    public static var lengthField: StaticString { "Scan_Response_Data_Length" }
    public static var dataField: StaticString { "Scan_Response_Data" }

    public var data: [UInt8]

    public init(data: [UInt8]) { self.data = data }
}
