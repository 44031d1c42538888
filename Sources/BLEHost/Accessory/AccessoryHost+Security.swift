import ReflectorFirmware

/// The accessory's security: SMP as responder (Core 6.0 Vol 3 Part H; LE Secure Connections,
/// or legacy pairing when allowed), the bonds it makes and the keys it gives the controller
/// on LE Long Term Key Request (Vol 4 Part E §7.7.65.5).
extension AccessoryHost {
    /// How the link is secured now, for the attributes' permissions.
    var linkSecurity: LinkSecurity {
        guard isEncrypted else { return .none }
        return link?.keyIsAuthenticated == true ? .authenticated : .encrypted
    }

    /// LE Long Term Key Request: this pairing's key (EDIV 0, Rand 0), else the bond's, else none.
    mutating func keyRequested(_ e: LELongTermKeyRequest) -> [Output] {
        guard var l = link, e.connectionHandle == l.handle else { return [] }
        defer { link = l }
        // This pairing's key (the SC LTK, or legacy pairing's STK: EDIV 0, Rand 0), else the bond's by its EDIV and Rand.
        let zero = e.encryptedDiversifier == 0 && e.randomNumber == 0
        let bondKey = l.bond.flatMap { $0.ediv == e.encryptedDiversifier && $0.rand == e.randomNumber ? $0.longTermKey : nil }
        if zero, let key = l.pairingLTK {
            l.keyIsAuthenticated = l.pairing?.method?.isAuthenticated ?? false
            l.encryptedWithBond = false
            core.scheduler.enqueue(LELongTermKeyRequestReply(connectionHandle: l.handle, longTermKey: key), urgent: true)
            return []
        }
        if let key = bondKey {
            l.keyIsAuthenticated = l.bond?.authenticated ?? false
            l.encryptedWithBond = true
            core.scheduler.enqueue(LELongTermKeyRequestReply(connectionHandle: l.handle, longTermKey: key), urgent: true)
            return []
        }
        core.scheduler.enqueue(LELongTermKeyRequestNegativeReply(connectionHandle: l.handle), urgent: true)
        return [.unknownKey]
    }

    mutating func encryptionChanged(enabled: Bool, now: Double) -> [Output] {
        guard var l = link else { return [] }
        var out: [Output] = enabled ? [.encrypted(bond: l.encryptedWithBond ? l.bond : nil)] : []
        if var p = l.pairing {
            let actions = p.encryptionChanged(enabled: enabled, now: now)
            l.pairing = p
            link = l
            out += perform(actions, now: now)
        } else {
            link = l
        }
        return out
    }

    /// A Security Request, once per connection (Vol 3 Part H §3.6.7): bonding, Secure Connections.
    mutating func requestSecurity() {
        guard var l = link, !l.securityRequested else { return }
        l.securityRequested = true
        link = l
        sendSMP(.securityRequest([.bonding, .secureConnections]))
    }

    mutating func smpReceived(_ bytes: [UInt8], now: Double) -> [Output] {
        guard var l = link else { return [] }
        if l.pairing == nil || l.pairing?.isFinished == true {
            // A new pairing starts with Pairing Request; refused when not pairable or too soon after a failure.
            guard bytes.first == 0x01 /* Pairing Request */ else { return [] }
            if !configuration.pairable { return sendSMP(.pairingFailed(.pairingNotSupported)) }
            if !backoff.allows(l.peer, now: now) { return sendSMP(.pairingFailed(.repeatedAttempts)) }
            guard let keys = try? P256KeyPair.generate() else { return sendSMP(.pairingFailed(.unspecifiedReason)) }
            let local = PairingAddress(configuration.address, random: true)
            var config = PairingSession.Configuration(ioCapability: configuration.ioCapability,
                                                      identity: PairingIdentity(irk: Key128(wire: configuration.irk), address: local))
            config.bonding = true
            config.fixedPasskey = configuration.fixedPasskey
            // A central without LE Secure Connections pairs with legacy pairing, when allowed.
            config.legacy = configuration.allowsLegacyPairing ? .allowed : .refused
            l.pairing = PairingSession(role: .responder, configuration: config, local: local, peer: l.peer, keyPair: keys, random: random, now: now)
            l.pairingLTK = nil
        }
        guard var p = l.pairing else { return [] }
        let actions = p.receive(bytes, now: now)
        l.pairing = p
        link = l
        return perform(actions, now: now)
    }

    mutating func pairingTick(now: Double) -> [Output] {
        guard var l = link, var p = l.pairing else { return [] }
        let actions = p.tick(now: now)
        l.pairing = p
        link = l
        return perform(actions, now: now)
    }

    @discardableResult
    mutating func sendSMP(_ pdu: SMPPDU) -> [Output] {
        core.send(L2CAPFrame(channel: L2CAPFrame.securityManager, payload: pdu.encode()))
        return []
    }

    private mutating func perform(_ actions: [PairingSession.Action], now: Double) -> [Output] {
        var out: [Output] = []
        for a in actions {
            switch a {
            case .send(let pdu): sendSMP(pdu)
            case .displayPasskey(let v): out.append(.displayPasskey(v))
            case .longTermKeyReady(let key): link?.pairingLTK = key.wire
            case .paired(let r):
                if let peer = link?.peer { backoff.succeeded(peer) }
                if r.bonded {
                    let bond = Bond(r)
                    bonds.removeAll { $0.peer == bond.peer || $0.matches(bond.peer) }
                    bonds.append(bond)
                    link?.bond = bond
                }
                out.append(.paired(r))
            case let .failed(reason, byPeer):
                if let peer = link?.peer { backoff.failed(peer, now: now) }
                out.append(.pairingFailed(reason, byPeer: byPeer))
            case .timedOut:
                out.append(.pairingFailed(.unspecifiedReason, byPeer: false))
                if let h = link?.handle { core.scheduler.enqueue(Disconnect(connectionHandle: h, reason: .authenticationFailure), urgent: true) }
            case .requestPasskey, .confirmNumber, .startEncryption:
                // A responder with a display only: it neither types nor compares, and never starts encryption.
                break
            }
        }
        return out
    }
}
