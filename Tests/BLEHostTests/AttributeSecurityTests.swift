@testable import BLEHost
import Testing

/// Attribute permissions against the link's security (Core 6.0 Vol 3 Part C §10.3, Part F §4):
/// an encrypted attribute needs encryption; an authenticated one needs a key from Passkey
/// Entry or Numeric Comparison, so a Just Works bond gets Insufficient Authentication.
struct AttributeSecurityTests {
    static func server(_ security: LinkSecurity) -> (ATTServer, UInt16) {
        var db = AttributeDatabase()
        let h = db.addService(.uuid16(0x185B), [.init(uuid: .uuid16(0x2C14), properties: [.read, .indicate], value: [1, 0, 0, 0], security: security)])[0]
        return (ATTServer(database: db), h)
    }

    @Test func authenticatedAttributesNeedAnAuthenticatedKey() {
        var (server, h) = Self.server(.authenticated)
        let read = ATTPDU.readRequest(handle: h).encode()
        #expect(server.receive(read, security: .none).response == .errorResponse(requestOpcode: 0x0A, handle: h, error: .insufficientEncryption))
        #expect(server.receive(read, security: .encrypted).response == .errorResponse(requestOpcode: 0x0A, handle: h, error: .insufficientAuthentication))
        #expect(server.receive(read, security: .authenticated).response == .readResponse([1, 0, 0, 0]))
        // Its configuration descriptor is guarded the same way.
        let subscribe = ATTPDU.writeRequest(handle: h + 1, value: [0x02, 0x00]).encode()
        #expect(server.receive(subscribe, security: .encrypted).response == .errorResponse(requestOpcode: 0x12, handle: h + 1, error: .insufficientAuthentication))
        #expect(server.receive(subscribe, security: .authenticated).response == .writeResponse)
    }

    @Test func encryptedAttributesTakeAnyKey() {
        var (server, h) = Self.server(.encrypted)
        let read = ATTPDU.readRequest(handle: h).encode()
        #expect(server.receive(read, security: .none).response == .errorResponse(requestOpcode: 0x0A, handle: h, error: .insufficientEncryption))
        #expect(server.receive(read, security: .encrypted).response == .readResponse([1, 0, 0, 0]))
    }

    /// An accessory that pairs with a passkey puts the Ranging Service behind an authenticated key.
    @Test func aPasskeyAccessoryAuthenticatesItsRangingService() {
        var c = AccessoryHost.Configuration(identity: .init(name: "tag", manufacturer: "m", model: "x", firmwareRevision: "1"), address: 0xC300_0000_0001,
                                            irk: Array(0..<16))
        #expect(c.rasSecurity == .encrypted)
        c.ioCapability = .displayOnly
        #expect(c.rasSecurity == .authenticated)
        let db = AccessoryDatabase(c.identity, realTimeRAS: true, rasSecurity: c.rasSecurity)
        #expect(db.database.attribute(db.ras.handles.features)?.permissions.contains(.authenticated) == true)
    }
}
