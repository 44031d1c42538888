import ReflectorFirmware

/// LE Set Extended Scan Response Data (0x2038, Core 6.0 Vol 4 Part E §7.8.55): one fragment of an
/// advertising set's scan response data (`ExtendedAdvertisingDataCommand`).
public struct LESetExtendedScanResponseData: ExtendedAdvertisingDataCommand {
    public static let opcode = HCIOpcode.leSetExtendedScanResponseData
    public static var lengthField: StaticString { "Scan_Response_Data_Length" }
    public static var dataField: StaticString { "Scan_Response_Data" }

    public var advertisingHandle: UInt8
    public var operation: UInt8
    public var fragmentPreference: UInt8
    public var data: [UInt8]

    public init(advertisingHandle: UInt8 = 0, operation: UInt8 = 3, fragmentPreference: UInt8 = 1, data: [UInt8]) {
        self.advertisingHandle = advertisingHandle
        self.operation = operation
        self.fragmentPreference = fragmentPreference
        self.data = data
    }
}
