import ReflectorFirmware

/// LE Set Extended Advertising Data (0x2037, Core 6.0 Vol 4 Part E §7.8.54): one fragment of an
/// advertising set's advertising data (`ExtendedAdvertisingDataCommand`).
public struct LESetExtendedAdvertisingData: ExtendedAdvertisingDataCommand {
    public static let opcode = HCIOpcode.leSetExtendedAdvertisingData
    public static var lengthField: StaticString { "Advertising_Data_Length" }
    public static var dataField: StaticString { "Advertising_Data" }

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
