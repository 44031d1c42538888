import BLEHost
import HCITransport
import RadioWorld
import ReflectorFirmware

/// A dev board that does not exist, with a peer in the simulated air: the served board and an
/// emulated board of the other role share a `BoardAir`, and the emulated board's host is this
/// project's (`EmulatedPeerHost`): an iPhone-like initiator when serving a reflector, this
/// project's accessory when serving an initiator. The serve command feeds the served board's
/// host packets and the passing time; it answers with the packets for that host.
public struct VirtualBoard {
    /// The served board's role, which picks the emulated peer.
    public enum Role: String, Sendable, Equatable {
        case reflector, initiator
    }

    public struct Options: Sendable {
        public var role: Role
        public var scenario: AirScenario
        public var boardAddress: UInt64
        public var peerAddress: UInt64
        /// The bond's key the emulated peer holds; nil: the boards accept any key.
        public var bondLTK: [UInt8]?
        public var antennas: Int
        /// The emulated phone pairs (LE Secure Connections, Just Works or a passkey it types
        /// from `passkey`) instead of encrypting with a bond key, and reads the accessory's
        /// Ranging Service when CS goes without inline PCT.
        public var pairs = false
        /// What the emulated phone types when the accessory shows a passkey.
        public var passkey: UInt32?
        /// The served board supports Inline PCT Transfer as a reflector (its controller does; a
        /// board without it makes the phone take the reflector's results over RAS).
        public var inlinePCT = true

        public init(role: Role, scenario: AirScenario = AirScenario(), boardAddress: UInt64 = 0xC0FF_EE00_00B0,
                    peerAddress: UInt64 = 0xC0FF_EE00_00B1, bondLTK: [UInt8]? = nil, antennas: Int = 1) {
            self.role = role
            self.scenario = scenario
            self.boardAddress = boardAddress
            self.peerAddress = peerAddress
            self.bondLTK = bondLTK
            self.antennas = antennas
        }
    }

    /// The served board (A) and the emulated peer's board (B).
    public private(set) var air: BoardAir
    private var peer: EmulatedPeerHost
    private let options: Options
    /// What the emulated phones of earlier connections reported.
    private var earlierPhoneOutputs: [InitiatorHost.Output] = []
    private var earlierPhoneEvents: [PhoneHost.Output] = []

    public var board: BoardController { air.a }
    public var peerBoard: BoardController { air.b }
    public var clock: UInt64 { air.clock }
    public var proceduresRun: Int { air.proceduresRun }
    /// A peer whose link layer has stopped answering: the board's data and control PDUs no
    /// longer reach it, so a procedure the board starts waits until its response timeout (40 s)
    /// drops the link. For tests and demonstrations of a misbehaving peer.
    public var peerIsSilent: Bool {
        get { air.deafBoard == 1 }
        set { air.deafBoard = newValue ? 1 : nil }
    }

    /// The emulated peer leaves the air (out of range, powered off) after this many CS
    /// procedures: the board's supervision timer then ends the link (Connection Timeout). For
    /// tests and demonstrations of a reflector that goes away.
    public var peerLeavesAfterProcedures: Int?

    /// Whether the emulated peer is out of the air; setting it false brings it back (it then
    /// advertises, or scans, again once its host has started over).
    public var peerIsAbsent: Bool {
        get { air.absentBoard == 1 }
        set {
            air.absentBoard = newValue ? 1 : nil
            if !newValue { peerLeavesAfterProcedures = nil }
        }
    }

    public init(_ o: Options) {
        options = o
        let seed = o.scenario.seed
        let caps: CSCapabilities = o.role == .reflector ? .projectReflector(antennas: o.antennas) : .emulatedPhone(antennas: o.antennas)
        var servedCaps = caps
        if !o.inlinePCT { servedCaps.subfeatures.remove(.inlinePCTReflector) }
        var served = BoardController(capabilities: servedCaps, address: o.boardAddress, seed: seed &* 7 &+ 3)
        let peerCaps: CSCapabilities = o.role == .reflector ? .emulatedPhone() : .projectReflector(antennas: 1)
        var emulated = BoardController(capabilities: peerCaps, address: o.peerAddress, seed: seed &* 11 &+ 5)
        served.acceptsAnyKey = o.bondLTK == nil && !o.pairs
        emulated.acceptsAnyKey = o.bondLTK == nil && !o.pairs
        air = BoardAir(served, emulated, scenario: o.scenario)
        peer = Self.freshPeer(o)
    }

    /// A fresh peer host; a phone keeps the bonds its predecessor made.
    private static func freshPeer(_ o: Options, bonds: [Bond] = []) -> EmulatedPeerHost {
        o.role == .reflector ? .phone(longTermKey: o.pairs ? nil : o.bondLTK, pairs: o.pairs, passkey: o.passkey, bonds: bonds, address: o.peerAddress,
                                      requireIOSCompliance: o.inlinePCT)
            : .accessory(longTermKey: o.bondLTK, address: o.peerAddress, phoneAddress: o.boardAddress)
    }

    /// Which v2 capabilities form the served board returns: Zephyr/Nordic's 31 octets, or
    /// Bumble's 34 (Bumble cannot parse the shorter one; reference channel-sounding.md §8).
    public mutating func setCapabilitiesLayout(_ layout: CapabilitiesLayout) {
        air.withBoard(0) { $0.cs.v2CapabilitiesLayout = layout }
    }

    /// The served board's controller faults (Hardware Error with `code`, then as after
    /// power-on: its link is gone, and the peer's supervision timer ends its side).
    public mutating func hardwareFault(code: UInt8) {
        air.withBoard(0) { $0.hardwareFault(code: code) }
    }

    /// The served board starts afresh without telling its host (power cycled with its port).
    public mutating func powerOn() {
        air.withBoard(0) { $0.powerOn() }
    }

    /// The served board lost UART sync (the host's octets arrived garbled or short).
    public mutating func lostSync() {
        air.withBoard(0) { $0.lostSync() }
    }

    /// A packet from the host: a command, or ACL data.
    public mutating func receive(_ packet: HCIPacket) {
        air.receive(packet, on: 0)
    }

    /// Lets time pass to `now` (µs): the emulated host and both boards do their part.
    /// Returns the packets for the served board's host, oldest first.
    public mutating func poll(now: UInt64) -> [HCIPacket] {
        var out: [HCIPacket] = []
        for _ in 0..<64 {
            let packets = air.poll(now: now)
            out += packets[0]
            for e in packets[1] {
                if e.indicator == .aclData {
                    peer.handleACL(e, now: air.clock)
                    continue
                }
                peer.handleEvent(e, now: air.clock)
                if e.eventCode == DisconnectionComplete.eventCode, options.role == .reflector {
                    // A fresh phone scans again (the accessory advertises again by itself).
                    earlierPhoneOutputs += peer.phoneOutputs
                    earlierPhoneEvents += peer.phoneEvents
                    peer = Self.freshPeer(options, bonds: peer.bonds)
                }
            }
            var sent = false
            if let command = peer.nextCommand(now: air.clock) {
                air.receive(command, on: 1)
                sent = true
            }
            for acl in peer.nextACL() {
                air.receive(acl, on: 1)
                sent = true
            }
            if packets[1].isEmpty && !sent { break }
        }
        if let n = peerLeavesAfterProcedures, air.proceduresRun >= n, air.absentBoard == nil { air.absentBoard = 1 }
        return out
    }

    /// What the emulated phone reported (set-up failures, procedures), over every connection.
    public var phoneOutputs: [InitiatorHost.Output] { earlierPhoneOutputs + peer.phoneOutputs }
    /// What the emulated phone's pairing and RAS client reported, over every connection.
    public var phoneEvents: [PhoneHost.Output] { earlierPhoneEvents + peer.phoneEvents }
    /// What the emulated accessory reported (serving an initiator).
    public var accessoryOutputs: [AccessoryHost.Output] { peer.accessoryOutputs }
}
