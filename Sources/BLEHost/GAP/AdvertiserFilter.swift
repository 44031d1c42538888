/// Which advertiser a scanning host connects to (Core 6.0 Vol 3 Part C §11, Supplement to the
/// Core Specification Part A §1.1–§1.2): one with a given address, or whose advertising data
/// lists a 16-bit service UUID, or carries a local name; any connectable one when none is given.
public struct AdvertiserFilter: Sendable, Equatable {
    /// The advertiser's device address (of either type).
    public var address: UInt64?
    /// A 16-bit service UUID the advertiser must list (AD types 0x02/0x03), e.g. 0x185B for RAS.
    public var serviceUUID16: UInt16?
    /// The complete or shortened local name (AD types 0x09/0x08), as UTF-8.
    public var name: [UInt8]?

    public init(address: UInt64? = nil, serviceUUID16: UInt16? = nil, name: String? = nil) {
        self.address = address
        self.serviceUUID16 = serviceUUID16
        self.name = name.map { Array($0.utf8) }
    }

    /// Whether a name is asked for (advertisers often put it in the scan response).
    var needsScanResponse: Bool { name != nil && serviceUUID16 == nil }

    /// Whether an advertiser at `address` with advertising data `data` passes.
    public func accepts(address advertiser: UInt64, _ data: [UInt8]) -> Bool {
        (address == nil || address == advertiser & 0xFFFF_FFFF_FFFF) && accepts(data)
    }

    /// Whether advertising data (AD structures: length, type, data) passes. Malformed data
    /// (a length running past the end) passes only a filter that asks nothing of the data.
    public func accepts(_ data: [UInt8]) -> Bool {
        var uuidFound = serviceUUID16 == nil
        var nameFound = name == nil
        var i = 0
        while i < data.count {
            let length = Int(data[i])
            guard length > 0 else { break }
            guard i + 1 + length <= data.count else { return serviceUUID16 == nil && name == nil }
            let type = data[i + 1]
            let value = data[(i + 2)..<(i + 1 + length)]
            if type == 0x02 || type == 0x03, let uuid = serviceUUID16 {
                var j = value.startIndex
                while j + 1 < value.endIndex {
                    if UInt16(value[j]) | UInt16(value[j + 1]) << 8 == uuid { uuidFound = true }
                    j += 2
                }
            }
            if type == 0x08 || type == 0x09, let name, Array(value) == name { nameFound = true }
            i += 1 + length
        }
        return uuidFound && nameFound
    }
}
