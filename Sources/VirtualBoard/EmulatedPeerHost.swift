import BLEHost
import PhoneEmulation
import ReflectorFirmware

/// The host of the emulated peer board behind `serve` with one board: an iPhone-like phone
/// (this project's `PhoneHost`: it scans, connects to the first connectable advertiser,
/// encrypts with the bond's key, or pairs and reads the Ranging Service, and runs CS as
/// initiator) when the served board is a
/// reflector, or this project's accessory (`ReflectorHostApp` for CS, plus advertising and the
/// bond's key on LE Long Term Key Request) when the served board is an initiator. It drives its
/// board over HCI as any host would, one command at a time, so it also drives a board on a pty.
public struct EmulatedPeerHost: Sendable {
    enum Host: Sendable {
        case phone(PhoneHost)
        case accessory(ReflectorHostApp)
    }

    private var host: Host
    /// The bond's key; without one, the boards skip the MIC check (`BoardController.acceptsAnyKey`).
    private let longTermKey: [UInt8]
    private let address: UInt64
    /// The accessory's own commands (advertising, key replies), sent before the CS host's next.
    private var own: [HCIPacket] = []
    /// Whose command awaits its Command Complete or Status.
    private var awaitingOwn: UInt16?
    private var awaitingHost = false
    /// Answers the CS host got; the accessory advertises once its set-up (Reset ... LE Set Host
    /// Feature) is through.
    private var hostAnswers = 0
    private var advertisingQueued = false
    /// The phone starts CS a while after encryption (as an iPhone does after its GATT and
    /// AccessorySetupKit exchanges), so the accessory's host can set its CS defaults first.
    private var holdUntil: UInt64?
    static let phoneStartDelay: UInt64 = 200_000
    /// What the phone reported (set-up failures, procedures).
    public private(set) var phoneOutputs: [InitiatorHost.Output] = []

    /// The phone, ranging whatever advertises: with the bond's key, or (`pairs`) pairing first
    /// (typing `passkey` if the accessory shows one), reusing `bonds` it made before.
    public static func phone(longTermKey: [UInt8]?, pairs: Bool = false, passkey: UInt32? = nil, bonds: [Bond] = [], address: UInt64) -> EmulatedPeerHost {
        let setup = LoopbackSetup()
        let key = pairs ? [] : longTermKey ?? [UInt8](repeating: 0, count: 16)
        var s = InitiatorHost.Setup(connectionHandle: BoardController.connectionHandle, configuration: setup.configuration,
                                    parameters: setup.parameters, connect: .init(scanningFor: AdvertiserFilter(), longTermKey: key))
        s.inlinePCTOnlyIfSupported = pairs
        s.waitsForRangingDataClient = pairs
        // Seeded from the address: the emulated phone's nonces and keys are a simulation's.
        let random = SeededOctets(seed: address)
        var host = EmulatedPeerHost(host: .phone(PhoneHost(setup: s, bonds: bonds, random: RandomOctets { $0 = random.next($0.count) })), longTermKey: key, address: address)
        host.passkey = passkey
        return host
    }

    /// What the phone types when asked for a passkey.
    private var passkey: UInt32?
    /// What the phone's pairing and RAS client reported.
    public private(set) var phoneEvents: [PhoneHost.Output] = []
    /// The bonds the phone made.
    public var bonds: [Bond] { if case .phone(let h) = host { h.bonds } else { [] } }

    /// The accessory, advertising as "reflector-emu" from `address`.
    public static func accessory(longTermKey: [UInt8]?, address: UInt64) -> EmulatedPeerHost {
        let host = ReflectorHostApp(connectionHandle: BoardController.connectionHandle, waitsForConnection: true)
        return EmulatedPeerHost(host: .accessory(host), longTermKey: longTermKey ?? [UInt8](repeating: 0, count: 16), address: address)
    }

    private init(host: Host, longTermKey: [UInt8], address: UInt64) {
        self.host = host
        self.longTermKey = longTermKey
        self.address = address
    }

    /// The next command for the peer board, if one may go now (µs on the air's clock).
    public mutating func nextCommand(now: UInt64) -> [UInt8]? {
        guard awaitingOwn == nil, !awaitingHost else { return nil }
        if !own.isEmpty {
            let packet = own.removeFirst()
            awaitingOwn = packet.opcode
            return packet.bytes
        }
        if let until = holdUntil {
            guard now >= until else { return nil }
            holdUntil = nil
        }
        let command: [UInt8]?
        switch host {
        case .phone(var h):
            command = h.nextCommand()
            host = .phone(h)
        case .accessory(var h):
            command = h.nextCommand()
            host = .accessory(h)
        }
        awaitingHost = command != nil
        return command
    }

    /// An event from the peer board.
    public mutating func handleEvent(_ event: HCIPacket, now: UInt64) {
        if let answered = Self.answeredOpcode(event), let mine = awaitingOwn, answered == mine {
            awaitingOwn = nil
            return
        }
        if Self.answeredOpcode(event) != nil {
            awaitingHost = false
            hostAnswers += 1
        }
        switch host {
        case .phone(var h):
            let outputs = h.handleEvent(event.bytes, now: Double(now) / 1e6)
            host = .phone(h)
            record(outputs, now: now)
            if event.eventCode == HCIEventCode.encryptionChange { holdUntil = now + Self.phoneStartDelay }
        case .accessory(var h):
            _ = h.handleEvent(event.bytes)
            host = .accessory(h)
            if hostAnswers >= 4 && !advertisingQueued {
                advertisingQueued = true
                queueAdvertising(enableOnly: false)
            }
            if event.leSubeventCode == LESubeventCode.longTermKeyRequest {
                own.append(LELongTermKeyRequestReply(connectionHandle: BoardController.connectionHandle, longTermKey: longTermKey).packet)
            }
            if event.eventCode == DisconnectionComplete.eventCode { queueAdvertising(enableOnly: true) }
        }
    }

    /// An ACL packet from the peer board (the phone's SMP and ATT).
    public mutating func handleACL(_ packet: HCIPacket, now: UInt64) {
        guard case .phone(var h) = host else { return }
        let outputs = h.handleACL(packet, now: Double(now) / 1e6)
        host = .phone(h)
        record(outputs, now: now)
    }

    /// ACL packets for the peer board now.
    public mutating func nextACL() -> [HCIPacket] {
        guard case .phone(var h) = host else { return [] }
        let packets = h.nextACL()
        host = .phone(h)
        return packets
    }

    private mutating func record(_ outputs: [PhoneHost.Output], now: UInt64) {
        for o in outputs {
            if case .host(let h) = o { phoneOutputs.append(h) } else { phoneEvents.append(o) }
            if o == .passkeyNeeded, case .phone(var h) = host {
                let more = h.enterPasskey(passkey ?? 0, now: Double(now) / 1e6)
                host = .phone(h)
                record(more, now: now)
            }
        }
    }

    /// ADV_IND every 100 ms from the public address: flags (LE General Discoverable, no BR/EDR) and the name.
    private mutating func queueAdvertising(enableOnly: Bool) {
        if !enableOnly {
            own.append(LESetAdvertisingParameters(intervalMin: 0x00A0, intervalMax: 0x00A0, advertisingType: 0, ownAddressType: 0).packet)
            let name = Array("reflector-emu".utf8)
            own.append(LESetAdvertisingData(data: [0x02, 0x01, 0x06, UInt8(name.count + 1), 0x09] + name).packet)
        }
        own.append(LESetAdvertisingEnable(enable: true).packet)
    }

    /// The opcode a Command Complete or Command Status answers.
    static func answeredOpcode(_ event: HCIPacket) -> UInt16? {
        (try? CommandCompleteEvent.decode(packet: event))?.opcode ?? (try? CommandStatusEvent.decode(packet: event))?.opcode
    }
}
