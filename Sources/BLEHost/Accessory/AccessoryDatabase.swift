/// The accessory's GATT database (Core 6.0 Vol 3 Part C §12, Part G §7; the Device Information
/// Service; the Ranging Service): GAP (Device Name, Appearance), GATT (Service Changed),
/// Device Information (manufacturer, model, firmware revision) and the Ranging Service.
public struct AccessoryDatabase: Sendable {
    public var database: AttributeDatabase
    public var ras: RASServer
    public let serviceChanged: UInt16

    public struct Identity: Sendable, Equatable {
        public var name: String
        /// Appearance (Assigned Numbers §2.6): 0x0200, Generic Tag.
        public var appearance: UInt16 = 0x0200
        public var manufacturer: String
        public var model: String
        public var firmwareRevision: String

        public init(name: String, manufacturer: String, model: String, firmwareRevision: String) {
            self.name = name
            self.manufacturer = manufacturer
            self.model = model
            self.firmwareRevision = firmwareRevision
        }
    }

    public init(_ identity: Identity, realTimeRAS: Bool, rasSecurity: LinkSecurity = .encrypted) {
        var db = AttributeDatabase()
        db.addService(.uuid16(0x1800), [
            .init(uuid: .uuid16(0x2A00), properties: .read, value: Array(identity.name.utf8.prefix(248))),
            .init(uuid: .uuid16(0x2A01), properties: .read, value: [UInt8(identity.appearance & 0xFF), UInt8(identity.appearance >> 8)]),
        ])
        // Service Changed: the range of handles that changed (none ever do while running).
        serviceChanged = db.addService(.uuid16(0x1801), [.init(uuid: .uuid16(0x2A05), properties: .indicate, value: [0x01, 0x00, 0xFF, 0xFF])])[0]
        db.addService(.uuid16(0x180A), [
            .init(uuid: .uuid16(0x2A29), properties: .read, value: Array(identity.manufacturer.utf8)),
            .init(uuid: .uuid16(0x2A24), properties: .read, value: Array(identity.model.utf8)),
            .init(uuid: .uuid16(0x2A26), properties: .read, value: Array(identity.firmwareRevision.utf8)),
        ])
        ras = RASServer(database: &db, realTime: realTimeRAS, security: rasSecurity)
        database = db
    }
}
