import BLEHost
import ReflectorFirmware

/// The two whole hosts as a controller and a hostile peer reach them: `AccessoryHost` (the
/// accessory's: SMP, ATT with the Ranging Service, signalling, bonds) and `PhoneHost` (the
/// phone's: SMP as initiator, the RAS client, beside `InitiatorHost`).
///
/// Input: one flag octet (bit 0: the phone's host, else the accessory's; bit 1: a bonded peer),
/// then records `tag | length (2 octets, LE) | octets`: tag bit 0 clear an HCI event (its
/// octets, no indicator), set an L2CAP frame for the connection (wrapped in one ACL packet);
/// before each, the host is asked for its next command and ACL, and time moves one second.
///
/// Checks: every command is a well-formed command packet, every ACL packet one for a connection
/// the controller reported and has not reported closed, that parses back; one command at a
/// time (the accessory sends none while one is unanswered). (A host that restarts takes
/// whatever handle the controller gives its next connection: the first long run found the
/// phone's host rightly on 0x0240 where this target had assumed 0x0040 alone.)
enum AccessoryTarget {
    static let handle: UInt16 = 0x0040
    static let peer = PairingAddress(0xF0F1_F2F3_F4F5, random: true)

    static let target = FuzzTarget("accessory", "AccessoryHost and PhoneHost: controller events and a peer's L2CAP frames", seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        let flags = input.byte()
        let bonds = flags & 2 != 0 ? [Bond(peer: peer, peerIRK: Array(0..<16), longTermKey: Array(16..<32), authenticated: false)] : []
        if flags & 1 != 0 {
            var phone = PhoneHost(setup: HostTarget.setup(0x01), bonds: bonds, random: .repeating(0x33))
            var t = 0.0
            var links = Links()
            for (tag, octets) in input.records() {
                t += 1
                if let c = phone.nextCommand() { require((try? HCIPacket(indicator: .command, bytes: c.bytes)) != nil, "the phone sent a malformed command") }
                for p in phone.nextACL() { check(p, links) }
                _ = phone.tick(now: t)
                if tag & 1 == 0 {
                    links.note(event: octets)
                    _ = phone.handleEvent(octets, now: t)
                } else if let p = acl(octets) {
                    _ = phone.handleACL(p, now: t)
                }
            }
            return
        }
        var c = AccessoryHost.Configuration(identity: .init(name: "fuzz", manufacturer: "m", model: "x", firmwareRevision: "1"),
                                            address: 0xC300_0000_0001, irk: Array(0..<16))
        c.ioCapability = flags & 4 != 0 ? .displayOnly : .noInputNoOutput
        c.realTimeRAS = flags & 8 == 0
        var host = AccessoryHost(configuration: c, bonds: bonds, random: .repeating(0x44))
        var t = 0.0
        var links = Links()
        for (tag, octets) in input.records() {
            t += 1
            let unanswered = host.unansweredOpcode
            if let command = host.nextCommand() {
                require(unanswered == nil, "a second command while 0x\(String(unanswered ?? 0, radix: 16)) is unanswered")
                require(command.indicator == .command, "a command that is not one")
            }
            for p in host.nextACL() { check(p, links) }
            _ = host.tick(now: t)
            if tag & 1 == 0 {
                links.note(event: octets)
                if let e = try? HCIPacket(event: octets) { _ = host.handleEvent(e, now: t) }
            } else if let p = acl(octets) {
                _ = host.handleACL(p, now: t)
            }
        }
    }

    /// One ACL packet (start of a frame) holding `frame`, if it fits.
    static func acl(_ frame: [UInt8]) -> HCIPacket? { try? HCIPacket.acl(handle: handle, data: frame) }

    static func check(_ p: HCIPacket, _ links: Links) {
        require(p.indicator == .aclData, "an ACL packet that is not one")
        require(p.aclHandle.map { links.open.contains($0) } == true, "ACL for a connection the controller has not reported open")
        require((try? HCIPacket(h4: p.h4Bytes)) == p, "an ACL packet that does not parse back")
    }

    /// The connections the events fed so far report open: an LE Connection Complete of any
    /// form (subevents 0x01, 0x0A, 0x29) with status 0 opens its handle, a successful
    /// Disconnection Complete closes it. Read from the octets, as the controller sent them.
    struct Links {
        var open: Set<UInt16> = []

        mutating func note(event o: [UInt8]) {
            guard o.count >= 2, Int(o[1]) == o.count - 2 else { return }
            let p = o.dropFirst(2)
            if o[0] == 0x3E, p.count >= 5, [0x01, 0x0A, 0x29].contains(p[p.startIndex]), p[p.startIndex + 1] == 0 {
                open.insert((UInt16(p[p.startIndex + 2]) | UInt16(p[p.startIndex + 3]) << 8) & 0x0FFF)
            } else if o[0] == 0x05, p.count >= 4, p[p.startIndex] == 0 {
                open.remove((UInt16(p[p.startIndex + 1]) | UInt16(p[p.startIndex + 2]) << 8) & 0x0FFF)
            }
        }
    }

    /// A connection (as peripheral for the accessory, as central for the phone), then a
    /// phone's opening: MTU, a read of RAS Features, a Pairing Request, a signalling request.
    static func seeds() -> [[UInt8]] {
        func frame(_ channel: UInt16, _ payload: [UInt8]) -> [UInt8] { L2CAPFrame(channel: channel, payload: payload).encode()! }
        let request = SMPPDU.pairingRequest(PairingFeatures(ioCapability: .keyboardDisplay, authRequirements: [.bonding, .mitm, .secureConnections],
                                                            initiatorKeys: [.identityKey], responderKeys: [.identityKey])).encode()
        var out: [[UInt8]] = []
        for flags: UInt8 in [0, 2, 4, 8, 1, 3] {
            let role: LinkRole = flags & 1 == 0 ? .peripheral : .central
            let connected = LEConnectionComplete(connectionHandle: handle, role: role, peerAddressType: .random, peerAddress: peer.address, interval: 6).packet.bytes
            let records: [(tag: UInt8, octets: [UInt8])] = [
                (0, CommandCompleteEvent(opcode: HCIOpcode.reset, returnParameters: [0]).packet.bytes), (0, connected),
                (1, frame(L2CAPFrame.attributeProtocol, ATTPDU.exchangeMTURequest(clientMTU: 247).encode())),
                (1, frame(L2CAPFrame.attributeProtocol, ATTPDU.readRequest(handle: 13).encode())),
                (1, frame(L2CAPFrame.securityManager, request)),
                (0, LELongTermKeyRequest(connectionHandle: handle).packet.bytes),
                (0, EncryptionChange(connectionHandle: handle, enabled: true).packet.bytes),
                (1, frame(L2CAPFrame.signalling, [0x12, 0x01, 0x08, 0x00, 6, 0, 6, 0, 0, 0, 0x90, 1])),
                (0, DisconnectionComplete(connectionHandle: handle, reason: .remoteUserTerminatedConnection).packet.bytes),
            ]
            out.append([flags] + FuzzInput.records(records))
        }
        return out
    }
}
