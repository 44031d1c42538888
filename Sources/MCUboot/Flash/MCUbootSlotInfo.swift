/// One entry of MCUboot's image list (image group 1, command 0, read; `boot_serial.c` bs_list):
/// `{"image"?, "slot", "version", "hash"?, "bootable"?, "pending"?, "confirmed"?, "active"?,
/// "permanent"?}`. Which keys appear depends on the bootloader's build options.
public struct MCUbootSlotInfo: Equatable, Sendable, CustomStringConvertible {
    public var image: Int?
    public var slot: Int
    public var version: String
    public var hash: [UInt8]?
    public var flags: [String]

    public init(image: Int? = nil, slot: Int, version: String, hash: [UInt8]? = nil, flags: [String] = []) {
        self.image = image
        self.slot = slot
        self.version = version
        self.hash = hash
        self.flags = flags
    }

    /// Reads one map of the "images" array; nil when "slot" or "version" is missing.
    public init?(_ value: CBORValue) {
        guard let slot = value["slot"]?.intValue, let version = value["version"]?.textValue else { return nil }
        self.slot = slot
        self.version = version
        image = value["image"]?.intValue
        hash = value["hash"]?.bytesValue
        flags = ["bootable", "pending", "confirmed", "active", "permanent"].filter { value[$0]?.boolValue == true }
    }

    /// The entries of an image-list response body (`{"images":[…]}`).
    public static func list(from body: CBORValue) -> [MCUbootSlotInfo]? {
        body["images"]?.arrayValue?.compactMap(MCUbootSlotInfo.init)
    }

    /// The body a server answers an image-list read with.
    public var cbor: CBORValue {
        var entries: [CBORMapEntry] = []
        if let image { entries.append(CBORMapEntry(key: "image", value: .int(image))) }
        entries.append(CBORMapEntry(key: "slot", value: .int(slot)))
        entries.append(CBORMapEntry(key: "version", value: .text(version)))
        if let hash { entries.append(CBORMapEntry(key: "hash", value: .bytes(hash))) }
        for f in flags { entries.append(CBORMapEntry(key: f, value: .bool(true))) }
        return .map(entries)
    }

    public var description: String {
        var s = (image.map { "image \($0) " } ?? "") + "slot \(slot): version \(version)"
        if let hash { s += " hash " + hash.prefix(8).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() + "…" }
        if !flags.isEmpty { s += " [" + flags.joined(separator: ", ") + "]" }
        return s
    }
}
