@testable import ReflectorFirmware

/// Two controllers on one connection, driven by raw HCI commands, their LL PDUs moved by hand
/// (`pump`): the central (the phone's side, one antenna) and the peripheral (two antennas).
/// Either side can fall silent (its LL no longer receives anything, so it never answers), and
/// the clock moves for both at once.
struct ControllerPair {
    var central = CSController(capabilities: .projectReflector(antennas: 1), address: 1,
                               connection: LinkConnection(handle: 0x40, isCentral: true), seed: 1)
    var peripheral = CSController(capabilities: .projectReflector(antennas: 2), address: 2,
                                  connection: LinkConnection(handle: 0x40, isCentral: false), seed: 2)
    var centralEvents: [HCIPacket] = []
    var peripheralEvents: [HCIPacket] = []
    /// Every PDU either side sent, in the order they were sent, delivered or not.
    var pdus: [[UInt8]] = []
    /// PDUs to the peripheral are lost: it never answers the central.
    var peripheralIsSilent = false
    /// PDUs to the central are lost.
    var centralIsSilent = false

    init() {
        // Unmask the LE Meta event and every CS event on both sides, as a host does.
        for c in [HCIPacket(opcode: HCIOpcode.setEventMask, parameters: Self.octets(0x0000_1FFF_FFFF_FFFF | 1 << 61)),
                  HCIPacket(opcode: HCIOpcode.leSetEventMask, parameters: Self.octets(0x1F | 0xFF << 43))] {
            central.handleCommand(c.encode())
            peripheral.handleCommand(c.encode())
        }
        pump()
        centralEvents.removeAll()
        peripheralEvents.removeAll()
    }

    static func octets(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> UInt64(8 * $0)) } }

    /// Moves events to the hosts' lists and PDUs to the peers until nothing moves.
    mutating func pump() {
        var moved = true
        while moved {
            moved = false
            for e in central.takeEvents() { centralEvents.append(try! HCIPacket(event: e)); moved = true }
            for e in peripheral.takeEvents() { peripheralEvents.append(try! HCIPacket(event: e)); moved = true }
            for p in central.takePDUs() {
                pdus.append(p)
                if !peripheralIsSilent { peripheral.receiveFromPeer(p) }
                moved = true
            }
            for p in peripheral.takePDUs() {
                pdus.append(p)
                if !centralIsSilent { central.receiveFromPeer(p) }
                moved = true
            }
        }
    }

    mutating func central<C: HCICommand>(_ c: C) { central.handleCommand(c.packet.encode()); pump() }
    mutating func peripheral<C: HCICommand>(_ c: C) { peripheral.handleCommand(c.packet.encode()); pump() }

    /// Both hosts send a command before either controller hears from the other (crossing PDUs).
    mutating func cross<A: HCICommand, B: HCICommand>(central a: A, peripheral b: B) {
        central.handleCommand(a.packet.encode())
        peripheral.handleCommand(b.packet.encode())
        pump()
    }

    /// Both clocks move to `time` (µs); what the controllers then send is pumped.
    mutating func advance(to time: UInt64) {
        central.advance(to: time)
        peripheral.advance(to: time)
        pump()
    }

    /// Capabilities exchanged, configuration 0 created by the central (initiator there,
    /// reflector here), procedure parameters on both sides, both roles allowed, CS security started:
    /// everything LE CS Procedure Enable needs, on either side.
    mutating func readyForProcedures() {
        central(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x40))
        central(LECSCreateConfig(connectionHandle: 0x40, configuration: CSConfiguration(role: .initiator)))
        let parameters = ProcedureParameters(antennaConfiguration: AntennaConfiguration(index: 4)!)
        central(LECSSetProcedureParameters(connectionHandle: 0x40, configID: 0, parameters: parameters))
        peripheral(LECSSetProcedureParameters(connectionHandle: 0x40, configID: 0, parameters: parameters))
        central(LECSSetDefaultSettings(connectionHandle: 0x40, initiatorEnabled: true, reflectorEnabled: false, csSyncAntennaSelection: 1, maxTxPower: 0))
        peripheral(LECSSetDefaultSettings(connectionHandle: 0x40, initiatorEnabled: false, reflectorEnabled: true, csSyncAntennaSelection: 1, maxTxPower: 0))
        central(LECSSecurityEnable(connectionHandle: 0x40))
    }

    /// The status of the last Command Status or Command Complete the central sent.
    var lastCentralStatus: HCIStatus? { Self.lastStatus(centralEvents) }
    /// The status of the last Command Status or Command Complete the peripheral sent.
    var lastPeripheralStatus: HCIStatus? { Self.lastStatus(peripheralEvents) }

    static func lastStatus(_ events: [HCIPacket]) -> HCIStatus? {
        for e in events.reversed() {
            if let cs = try? CommandStatusEvent.decode(packet: e) { return cs.status }
            if let cc = try? CommandCompleteEvent.decode(packet: e) { return cc.status }
        }
        return nil
    }

    func meta(_ events: [HCIPacket], _ code: UInt8) -> [ArraySlice<UInt8>] {
        events.compactMap { $0.leSubeventCode == code ? try? $0.leSubeventBody(code) : nil }
    }

    /// The Disconnection Complete events among `events`, as the bytes the host received.
    static func disconnections(_ events: [HCIPacket]) -> [[UInt8]] {
        events.filter { $0.eventCode == HCIEventCode.disconnectionComplete }.map { $0.encode() }
    }
}
