import ReflectorFirmware

/// LE Set Extended Advertising Data (0x2037, §7.8.54) and LE Set Extended Scan Response Data
/// (0x2038, §7.8.55) (Core 6.0 Vol 4 Part E): one fragment of an advertising set's data,
/// `Advertising_Handle 1 (0–0xEF) | Operation 1 (0–4) | Fragment_Preference 1 (0–1) |
/// Length 1 (0–251) | Data n`. The two commands differ only in opcode and field names, which
/// `Kind` gives.
public struct ExtendedAdvertisingDataCommand<Kind: AdvertisingDataKind>: HCICommand, HCIFieldCodec {
    public static var opcode: UInt16 { Kind.extendedOpcode }
    public static var name: StaticString { Kind.extendedName }

    public var advertisingHandle: UInt8
    /// Intermediate 0, first 1, last 2, complete 3, unchanged 4.
    public var operation: UInt8
    /// 0: the controller may fragment; 1: it should not.
    public var fragmentPreference: UInt8
    /// At most 251 octets (more are cut when encoding).
    public var data: [UInt8]

    public init(advertisingHandle: UInt8 = 0, operation: UInt8 = 3, fragmentPreference: UInt8 = 1, data: [UInt8]) {
        (self.advertisingHandle, self.operation, self.fragmentPreference, self.data) = (advertisingHandle, operation, fragmentPreference, data)
    }

    public static var fields: [HCIField<Self>] {
        [.u8(\.advertisingHandle, "Advertising_Handle", in: 0...0xEF), .u8(\.operation, "Operation", in: 0...4),
         .u8(\.fragmentPreference, "Fragment_Preference", in: 0...1), .lengthPrefixed(\.data, Kind.lengthField, Kind.dataField, maximum: 251)]
    }
    public static var blank: Self { Self(data: []) }
}

public typealias LESetExtendedAdvertisingData = ExtendedAdvertisingDataCommand<AdvertisingDataKinds.Advertising>
public typealias LESetExtendedScanResponseData = ExtendedAdvertisingDataCommand<AdvertisingDataKinds.ScanResponse>

/// Which data an advertising-data command carries: advertising data or scan response data
/// (Core 6.0 Vol 4 Part E §7.8.7–8, §7.8.54–55). The legacy and the extended commands of a
/// kind share its field names.
public protocol AdvertisingDataKind: Sendable {
    static var legacyOpcode: UInt16 { get }
    static var legacyName: StaticString { get }
    static var extendedOpcode: UInt16 { get }
    static var extendedName: StaticString { get }
    /// The spec's names of the length and data fields, for decode errors.
    static var lengthField: StaticString { get }
    static var dataField: StaticString { get }
}

public enum AdvertisingDataKinds {
    public enum Advertising: AdvertisingDataKind {
        public static var legacyOpcode: UInt16 { HCIOpcode.leSetAdvertisingData }
        public static var legacyName: StaticString { "LE Set Advertising Data" }
        public static var extendedOpcode: UInt16 { HCIOpcode.leSetExtendedAdvertisingData }
        public static var extendedName: StaticString { "LE Set Extended Advertising Data" }
        public static var lengthField: StaticString { "Advertising_Data_Length" }
        public static var dataField: StaticString { "Advertising_Data" }
    }

    public enum ScanResponse: AdvertisingDataKind {
        public static var legacyOpcode: UInt16 { HCIOpcode.leSetScanResponseData }
        public static var legacyName: StaticString { "LE Set Scan Response Data" }
        public static var extendedOpcode: UInt16 { HCIOpcode.leSetExtendedScanResponseData }
        public static var extendedName: StaticString { "LE Set Extended Scan Response Data" }
        public static var lengthField: StaticString { "Scan_Response_Data_Length" }
        public static var dataField: StaticString { "Scan_Response_Data" }
    }
}
