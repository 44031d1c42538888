import ReflectorFirmware

/// LE Set Extended Advertising Data (0x2037, §7.8.54) and LE Set Extended Scan Response Data
/// (0x2038, §7.8.55) (Core 6.0 Vol 4 Part E): one fragment of an advertising set's data,
/// `Advertising_Handle 1 (0–0xEF) | Operation 1 (0–4) | Fragment_Preference 1 (0–1) |
/// Length 1 (0–251) | Data n`. The two commands differ only in opcode and field names, which
/// `Kind` gives.
public struct ExtendedAdvertisingDataCommand<Kind: AdvertisingDataKind>: HCICommand, HCIFieldCodec {
    public static var opcode: UInt16 { Kind.names.extended.opcode }
    public static var name: StaticString { Kind.names.extended.name }

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
         .u8(\.fragmentPreference, "Fragment_Preference", in: 0...1), .lengthPrefixed(\.data, Kind.names.lengthField, Kind.names.dataField, maximum: 251)]
    }
    public static var blank: Self { Self(data: []) }
}

public typealias LESetExtendedAdvertisingData = ExtendedAdvertisingDataCommand<AdvertisingDataKinds.Advertising>
public typealias LESetExtendedScanResponseData = ExtendedAdvertisingDataCommand<AdvertisingDataKinds.ScanResponse>

/// Which data an advertising-data command carries, advertising data or scan response data
/// (Core 6.0 Vol 4 Part E §7.8.7–8, §7.8.54–55): the opcodes and names of its legacy and
/// extended commands and of their two fields.
public protocol AdvertisingDataKind: Sendable {
    static var names: AdvertisingDataNames { get }
}

public struct AdvertisingDataNames: Sendable {
    public let legacy: (opcode: UInt16, name: StaticString)
    public let extended: (opcode: UInt16, name: StaticString)
    /// The spec's names of the length and data fields, for decode errors.
    public let lengthField: StaticString, dataField: StaticString
}

public enum AdvertisingDataKinds {
    public enum Advertising: AdvertisingDataKind {
        public static let names = AdvertisingDataNames(legacy: (HCIOpcode.leSetAdvertisingData, "LE Set Advertising Data"),
                                                       extended: (HCIOpcode.leSetExtendedAdvertisingData, "LE Set Extended Advertising Data"),
                                                       lengthField: "Advertising_Data_Length", dataField: "Advertising_Data")
    }

    public enum ScanResponse: AdvertisingDataKind {
        public static let names = AdvertisingDataNames(legacy: (HCIOpcode.leSetScanResponseData, "LE Set Scan Response Data"),
                                                       extended: (HCIOpcode.leSetExtendedScanResponseData, "LE Set Extended Scan Response Data"),
                                                       lengthField: "Scan_Response_Data_Length", dataField: "Scan_Response_Data")
    }
}
