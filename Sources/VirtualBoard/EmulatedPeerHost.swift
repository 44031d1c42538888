import BLEHost
import ReflectorFirmware

/// The host of the emulated peer board behind `serve` with one board: this project's own hosts,
/// the same a real board gets. When the served board is a reflector, the peer is an iPhone-like
/// phone (`PhoneHost`: it scans, connects to the first connectable advertiser, encrypts with
/// the bond's key or pairs and reads the Ranging Service, and runs CS as initiator); when it is
/// an initiator, the peer is this project's accessory (`AccessoryHost`: it advertises with the
/// Ranging Service, pairs and bonds, serves GATT and allows the reflector role), so one served
/// board tests `range` exactly as a real accessory would. It drives its board over HCI as any
/// host would, so it also drives a board on a pty.
public struct EmulatedPeerHost: Sendable {
    enum Host: Sendable {
        case phone(PhoneHost)
        case accessory(AccessoryHost)
    }

    private var host: Host
    /// The phone starts CS a while after encryption (as an iPhone does after its GATT and
    /// AccessorySetupKit exchanges), so the accessory's host can set its CS defaults first.
    private var holdUntil: UInt64?
    static let phoneStartDelay: UInt64 = 200_000
    /// What the phone reported (set-up failures, procedures).
    public private(set) var phoneOutputs: [InitiatorHost.Output] = []
    /// What the phone's pairing and RAS client reported.
    public private(set) var phoneEvents: [PhoneHost.Output] = []
    /// What the accessory reported.
    public private(set) var accessoryOutputs: [AccessoryHost.Output] = []
    /// What the phone types when asked for a passkey.
    private var passkey: UInt32?

    /// The phone, ranging whatever advertises: with the bond's key, or (`pairs`) pairing first
    /// (typing `passkey` if the accessory shows one), reusing `bonds` it made before; without
    /// `requireIOSCompliance` it ranges a reflector an iPhone would refuse (one without inline PCT).
    public static func phone(longTermKey: [UInt8]?, pairs: Bool = false, passkey: UInt32? = nil, bonds: [Bond] = [], address: UInt64,
                             requireIOSCompliance: Bool = true) -> EmulatedPeerHost {
        let key = pairs ? [] : longTermKey ?? [UInt8](repeating: 0, count: 16)
        var s = InitiatorHost.Setup(connectionHandle: BoardController.connectionHandle, configuration: PhoneDefaults.configuration(),
                                    parameters: PhoneDefaults.parameters(), requireIOSCompliance: requireIOSCompliance,
                                    connect: .init(scanningFor: AdvertiserFilter(), longTermKey: key))
        s.inlinePCTOnlyIfSupported = pairs
        s.waitsForRangingDataClient = pairs
        // Seeded from the address: the emulated phone's nonces and keys are a simulation's.
        let random = SeededOctets(seed: address)
        var host = EmulatedPeerHost(host: .phone(PhoneHost(setup: s, bonds: bonds, random: RandomOctets { $0 = random.next($0.count) })))
        host.passkey = passkey
        return host
    }

    /// The accessory, advertising as "reflector-emu" with the Ranging Service from `address`
    /// (a static random address), the accessory `reflector-emu accessory` runs. With
    /// `longTermKey`, it holds a bond with that key for the served board (`phoneAddress`,
    /// public) and for whatever address a phone connects from (a host may connect from a random
    /// address of its own), so a phone given the same key encrypts without pairing; `bonds` are
    /// those it made on earlier connections.
    public static func accessory(longTermKey: [UInt8]?, address: UInt64, phoneAddress: UInt64, bonds: [Bond] = []) -> EmulatedPeerHost {
        var c = AccessoryHost.Configuration(identity: .init(name: "reflector-emu", manufacturer: "reflector-emu", model: "emulated accessory",
                                                            firmwareRevision: "emulated"),
                                            address: address, irk: SeededOctets(seed: address ^ 0x1D).next(16))
        c.advertisingInterval = 0x00A0...0x00A0
        var kept = bonds
        if let key = longTermKey, !kept.contains(where: { $0.peer.address == phoneAddress }) {
            kept.append(Bond(peer: PairingAddress(phoneAddress, random: false), peerIRK: nil, longTermKey: key, authenticated: false))
        }
        let random = SeededOctets(seed: address)
        var host = EmulatedPeerHost(host: .accessory(AccessoryHost(configuration: c, bonds: kept, random: RandomOctets { $0 = random.next($0.count) })))
        host.provisionedKey = longTermKey
        return host
    }

    private init(host: Host) { self.host = host }

    /// The accessory's key for any phone that connects (serve's `--bond-ltk`).
    private var provisionedKey: [UInt8]?

    /// The bonds the host made.
    public var bonds: [Bond] {
        switch host {
        case .phone(let h): h.bonds
        case .accessory(let h): h.bonds
        }
    }

    /// The next command for the peer board, if one may go now (µs on the air's clock).
    public mutating func nextCommand(now: UInt64) -> HCIPacket? {
        switch host {
        case .phone(var h):
            if let until = holdUntil {
                guard now >= until else { return nil }
                holdUntil = nil
            }
            defer { host = .phone(h) }
            return h.nextCommand()
        case .accessory(var h):
            defer { host = .accessory(h) }
            accessoryOutputs += h.tick(now: Self.seconds(now))
            return h.nextCommand()
        }
    }

    /// An event from the peer board.
    public mutating func handleEvent(_ event: HCIPacket, now: UInt64) {
        if let key = provisionedKey, case .accessory(var h) = host, let c = ConnectionEstablished(packet: event),
           !h.bonds.contains(where: { $0.matches(c.peer) }) {
            h.remember(Bond(peer: c.peer, peerIRK: nil, longTermKey: key, authenticated: false))
            host = .accessory(h)
        }
        deliver(now: now, phone: { $0.handleEvent(event, now: $1) }, accessory: { $0.handleEvent(event, now: $1) })
        if case .phone = host, event.eventCode == HCIEventCode.encryptionChange { holdUntil = now + Self.phoneStartDelay }
    }

    /// An ACL packet from the peer board (SMP and ATT).
    public mutating func handleACL(_ packet: HCIPacket, now: UInt64) {
        deliver(now: now, phone: { $0.handleACL(packet, now: $1) }, accessory: { $0.handleACL(packet, now: $1) })
    }

    /// One input to whichever host this is (with the time in seconds), its outputs kept.
    private mutating func deliver(now: UInt64, phone: (inout PhoneHost, Double) -> [PhoneHost.Output],
                                  accessory: (inout AccessoryHost, Double) -> [AccessoryHost.Output]) {
        switch host {
        case .phone(var h):
            let outputs = phone(&h, Self.seconds(now))
            host = .phone(h)
            record(outputs, now: now)
        case .accessory(var h):
            accessoryOutputs += accessory(&h, Self.seconds(now))
            host = .accessory(h)
        }
    }

    /// ACL packets for the peer board now.
    public mutating func nextACL() -> [HCIPacket] {
        switch host {
        case .phone(var h):
            defer { host = .phone(h) }
            return h.nextACL()
        case .accessory(var h):
            defer { host = .accessory(h) }
            return h.nextACL()
        }
    }

    private mutating func record(_ outputs: [PhoneHost.Output], now: UInt64) {
        for o in outputs {
            if case .host(let h) = o { phoneOutputs.append(h) } else { phoneEvents.append(o) }
            if o == .passkeyNeeded, case .phone(var h) = host {
                let more = h.enterPasskey(passkey ?? 0, now: Self.seconds(now))
                host = .phone(h)
                record(more, now: now)
            }
        }
    }

    private static func seconds(_ us: UInt64) -> Double { Double(us) / 1e6 }
}
