import ReflectorFirmware

/// The extended scan response data command (0x2038, Core 6.0 Vol 4 Part E §7.8.55): one fragment of an
/// advertising set's scan response data. `Advertising_Handle 1 (0–0xEF) | Operation 1 (0–4) |
/// Fragment_Preference 1 (0–1) | Scan_Response_Data_Length 1 (0–251) | Scan_Response_Data n`.
public struct LESetExtendedScanResponseData: HCICommand {
    public static let opcode = HCIOpcode.leSetExtendedScanResponseData

    public var advertisingHandle: UInt8
    /// Intermediate 0, first 1, last 2, complete 3, unchanged 4.
    public var operation: UInt8
    /// 0: the controller may fragment; 1: it should not.
    public var fragmentPreference: UInt8
    /// At most 251 octets (more are cut when encoding).
    public var data: [UInt8]

    public init(advertisingHandle: UInt8 = 0, operation: UInt8 = 3, fragmentPreference: UInt8 = 1, data: [UInt8]) {
        self.advertisingHandle = advertisingHandle
        self.operation = operation
        self.fragmentPreference = fragmentPreference
        self.data = data
    }

    public var parameterCapacity: Int { 4 + min(data.count, 251) }

    public func encodeParameters(into w: inout ByteWriter) {
        let d = data.prefix(251)
        w.u8(advertisingHandle)
        w.u8(operation)
        w.u8(fragmentPreference)
        w.u8(UInt8(d.count))
        w.octets(d)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let handle = try r.u8("Advertising_Handle", in: 0...0xEF)
        let op = try r.u8("Operation", in: 0...4)
        let frag = try r.u8("Fragment_Preference", in: 0...1)
        return Self(advertisingHandle: handle, operation: op, fragmentPreference: frag,
                    data: try r.lengthPrefixed("Scan_Response_Data_Length", "Scan_Response_Data", maximum: 251))
    }
}
