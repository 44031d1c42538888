/// A GATT server's attributes in handle order, built service by service (Core 6.0 Vol 3 Part G
/// §3): a primary service declaration (0x2800, the service UUID as value), then per
/// characteristic its declaration (0x2803: properties, value handle, UUID), its value, and a
/// Client Characteristic Configuration descriptor (0x2902) when it notifies or indicates.
public struct AttributeDatabase: Equatable, Sendable {
    public private(set) var attributes: [Attribute] = []
    /// The handle range of each service, by its UUID.
    public private(set) var services: [(uuid: ATTUUID, start: UInt16, end: UInt16)] = []

    public init() {}

    /// A characteristic to add with its service.
    public struct CharacteristicSpec: Sendable {
        public var uuid: ATTUUID
        public var properties: CharacteristicProperties
        public var value: [UInt8]
        /// What reading or writing the value (and its configuration) needs of the link.
        public var security: LinkSecurity

        public init(uuid: ATTUUID, properties: CharacteristicProperties, value: [UInt8] = [], security: LinkSecurity = .none) {
            self.uuid = uuid
            self.properties = properties
            self.value = value
            self.security = security
        }

        public init(uuid: ATTUUID, properties: CharacteristicProperties, value: [UInt8] = [], encrypted: Bool) {
            self.init(uuid: uuid, properties: properties, value: value, security: encrypted ? .encrypted : .none)
        }

        /// The permissions `security` adds.
        var securityPermissions: Attribute.Permissions {
            switch security {
            case .none: []
            case .encrypted: .encrypted
            case .authenticated: [.encrypted, .authenticated]
            }
        }
    }

    /// Appends a primary service; returns each characteristic's value handle, in order.
    @discardableResult
    public mutating func addService(_ uuid: ATTUUID, _ characteristics: [CharacteristicSpec]) -> [UInt16] {
        var handle = (attributes.last?.handle ?? 0) + 1
        let start = handle
        attributes.append(Attribute(handle: handle, type: .primaryService, value: uuid.octets, permissions: .read))
        var valueHandles: [UInt16] = []
        for c in characteristics {
            let declaration = handle + 1
            let valueHandle = handle + 2
            attributes.append(Attribute(handle: declaration, type: .characteristic,
                                        value: [c.properties.rawValue, UInt8(valueHandle & 0xFF), UInt8(valueHandle >> 8)] + c.uuid.octets,
                                        permissions: .read))
            var permissions: Attribute.Permissions = []
            if c.properties.contains(.read) { permissions.insert(.read) }
            if !c.properties.isDisjoint(with: [.write, .writeWithoutResponse]) { permissions.insert(.write) }
            permissions.formUnion(c.securityPermissions)
            attributes.append(Attribute(handle: valueHandle, type: c.uuid, value: c.value, permissions: permissions))
            handle = valueHandle
            if !c.properties.isDisjoint(with: [.notify, .indicate]) {
                handle += 1
                attributes.append(Attribute(handle: handle, type: .clientCharacteristicConfiguration, value: [0, 0],
                                            permissions: c.securityPermissions.union([.read, .write])))
            }
            valueHandles.append(valueHandle)
        }
        services.append((uuid, start, handle))
        return valueHandles
    }

    /// The attribute at `handle`.
    public func attribute(_ handle: UInt16) -> Attribute? {
        // Handles are dense and ascending from 1.
        let i = Int(handle) - 1
        guard i >= 0, i < attributes.count, attributes[i].handle == handle else { return nil }
        return attributes[i]
    }

    /// Sets the value at `handle` (for the server's own updates and client writes).
    public mutating func setValue(_ value: [UInt8], at handle: UInt16) {
        let i = Int(handle) - 1
        guard i >= 0, i < attributes.count, attributes[i].handle == handle else { return }
        attributes[i].value = value
    }

    public static func == (a: AttributeDatabase, b: AttributeDatabase) -> Bool { a.attributes == b.attributes }
}
