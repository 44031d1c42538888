import ReflectorFirmware

/// What the accessory keeps for one connection beside the core's record of it: the GATT
/// database as this client sees it (a bonded client's configuration descriptors restored,
/// Core 6.0 Vol 3 Part G §3.3.3.3), the ATT server with the Ranging Service behind it, the
/// pairing under way and the bond the peer is known by.
struct AccessoryLink: Sendable {
    let handle: UInt16
    let peer: PairingAddress
    var att: ATTServer
    var ras: RASServer
    var pairing: PairingSession?
    /// The key the current pairing leaves for LE Long Term Key Request (EDIV 0, Rand 0).
    var pairingLTK: [UInt8]?
    var bond: Bond?
    /// Whether the key the link is encrypted with is authenticated (MITM-protected).
    var keyIsAuthenticated = false
    /// The key this link was asked for and given was the bond's (a reconnection).
    var encryptedWithBond = false
    var securityRequested = false
    private var outgoing: [ATTPDU] = []

    init(handle: UInt16, peer: PairingAddress, database base: AccessoryDatabase, bond: Bond?, rasSecurity: LinkSecurity) {
        self.handle = handle
        self.peer = peer
        self.bond = bond
        var db = base
        for (h, v) in bond?.configurations ?? [:] where db.database.attribute(h)?.type == .clientCharacteristicConfiguration {
            db.database.setValue([UInt8(v & 0xFF), UInt8(v >> 8)], at: h)
        }
        att = ATTServer(database: db.database)
        ras = db.ras
        ras.reset()
    }

    var attMTU: Int { Int(att.mtu) }

    /// One ATT PDU from the client; true when it was refused for the link's security
    /// (Insufficient Encryption or Authentication), which calls for a Security Request.
    mutating func receiveATT(_ bytes: [UInt8], security: LinkSecurity, now: Double) -> Bool {
        let out = att.receive(bytes, security: security, now: now, service: &ras)
        outgoing += out
        return out.contains { pdu in
            if case .errorResponse(_, _, let e) = pdu { return e == .insufficientEncryption || e == .insufficientAuthentication }
            return false
        }
    }

    /// A procedure's ranging data for the Ranging Service.
    mutating func publish(counter: UInt16, segments: [[UInt8]]) {
        outgoing += ras.publish(counter: counter, segments: segments, server: &att)
    }

    mutating func tick(now: Double) { outgoing += ras.tick(now: now, in: &att) }

    mutating func takeOutgoing() -> [ATTPDU] {
        defer { outgoing = [] }
        return outgoing
    }

    /// The client's configuration descriptors that are on, by handle (what a bond keeps).
    var configurations: [UInt16: UInt16] {
        var kept: [UInt16: UInt16] = [:]
        for a in att.database.attributes where a.type == .clientCharacteristicConfiguration && a.value.count == 2 {
            let v = UInt16(a.value[0]) | UInt16(a.value[1]) << 8
            if v != 0 { kept[a.handle] = v }
        }
        return kept
    }
}
