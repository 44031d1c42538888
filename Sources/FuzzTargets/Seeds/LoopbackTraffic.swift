import BLEHost
import HCITransport
import PhoneEmulation
import RadioWorld
import ReflectorFirmware

/// Everything that crosses a boundary in one in-process session (the phone's host and
/// controller, the accessory's, the air between), recorded hop by hop: the seeds of the
/// controller, host, event, LL, RAS and capture targets are real traffic, not guesses.
struct LoopbackTraffic: Sendable {
    /// What a controller was given, in order.
    enum ControllerInput: Sendable {
        case command([UInt8])
        case pdu([UInt8])
        /// A procedure ran.
        case procedure
    }

    /// What the phone's host was given, in order.
    enum HostInput: Sendable {
        case event([UInt8])
        case segment([UInt8])
    }

    var inlinePCT: Bool
    var initiatorController: [ControllerInput] = []
    var reflectorController: [ControllerInput] = []
    var initiatorHost: [HostInput] = []
    /// Every event either controller sent (the initiator's first).
    var events: [[UInt8]] = []
    /// Every LL control PDU either controller sent.
    var pdus: [[UInt8]] = []
    /// RAS bodies the accessory served, each with its segments.
    var rangingSegments: [[[UInt8]]] = []
    var initiatorCapture: [BTSnoopRecord] = []
    var reflectorCapture: [BTSnoopRecord] = []

    /// The phone side's HCI traffic as one H4 stream (commands and events interleaved).
    var initiatorH4Stream: [UInt8] { initiatorCapture.flatMap(\.packet.h4Bytes) }
    var commands: [[UInt8]] {
        (initiatorController + reflectorController).compactMap { if case .command(let c) = $0 { c } else { nil } }
    }
}

/// Sessions recorded once per process.
enum SeedTraffic {
    static let loopbacks: [LoopbackTraffic] = [
        record(inlinePCT: true, antennaConfiguration: 0, procedures: 2),
        record(inlinePCT: false, antennaConfiguration: 0, procedures: 2),
        record(inlinePCT: true, antennaConfiguration: 6, procedures: 1),
    ]

    /// Runs a loopback (3 m, 20 dB) through set-up and `procedures` procedures, then stop.
    static func record(inlinePCT: Bool, antennaConfiguration: UInt8, procedures: Int) -> LoopbackTraffic {
        var setup = LoopbackSetup(scenario: AirScenario(seed: 7, geometry: AirGeometry(distance: 3), snrDB: 20),
                                  antennaConfigurationIndex: antennaConfiguration, inlinePCT: inlinePCT)
        setup.recordHCI = true
        var link = setup.makeLink()
        var t = LoopbackTraffic(inlinePCT: inlinePCT)
        settle(&link, &t)
        for _ in 0..<procedures {
            guard let start = link.initiatorController.nextProcedureStart, link.reflectorController.nextProcedureStart == start else { break }
            link.advance(to: start)
            t.initiatorController.append(.procedure)
            t.reflectorController.append(.procedure)
            _ = ProcedureExchange.run(initiator: &link.initiatorController, reflector: &link.reflectorController,
                                      initiatorRadio: &link.initiatorRadio, reflectorRadio: &link.reflectorRadio)
            settle(&link, &t)
        }
        link.initiatorHost.stop()
        settle(&link, &t)
        return t
    }

    /// `LoopbackLink.settle`, recording every hop.
    static func settle(_ link: inout LoopbackLink<AirRadio, AirRadio>, _ t: inout LoopbackTraffic) {
        var moved = true
        var rounds = 0
        func record(_ indicator: HCIPacketIndicator, _ bytes: [UInt8], _ direction: BTSnoopDirection, reflector: Bool, clock: UInt64) {
            let r = BTSnoopRecord(packet: HCIPacket(indicator: indicator, bytes: bytes), direction: direction,
                                  timestamp: BTSnoopTimestamp(virtualMicroseconds: clock))
            if reflector { t.reflectorCapture.append(r) } else { t.initiatorCapture.append(r) }
        }
        while moved && rounds < 10_000 {
            moved = false
            rounds += 1
            let clock = link.initiatorController.now
            if let command = link.initiatorHost.nextCommand() {
                t.initiatorController.append(.command(command))
                record(.command, command, .hostToController, reflector: false, clock: clock)
                link.initiatorController.handleCommand(command)
                moved = true
            }
            if let command = link.reflectorHost.nextCommand() {
                t.reflectorController.append(.command(command))
                record(.command, command, .hostToController, reflector: true, clock: clock)
                link.reflectorController.handleCommand(command)
                moved = true
            }
            for event in link.initiatorController.takeEvents() {
                t.events.append(event)
                t.initiatorHost.append(.event(event))
                record(.event, event, .controllerToHost, reflector: false, clock: clock)
                _ = link.initiatorHost.handleEvent(event)
                moved = true
            }
            for event in link.reflectorController.takeEvents() {
                t.events.append(event)
                record(.event, event, .controllerToHost, reflector: true, clock: clock)
                for output in link.reflectorHost.handleEvent(event) {
                    if case .reflector(.rangingData(_, let segments)) = output {
                        t.rangingSegments.append(segments)
                        for segment in segments {
                            t.initiatorHost.append(.segment(segment))
                            _ = link.initiatorHost.receiveRangingData(segment)
                        }
                    }
                }
                moved = true
            }
            for pdu in link.initiatorController.takePDUs() {
                t.pdus.append(pdu)
                t.reflectorController.append(.pdu(pdu))
                link.reflectorController.receiveFromPeer(pdu)
                moved = true
            }
            for pdu in link.reflectorController.takePDUs() {
                t.pdus.append(pdu)
                t.initiatorController.append(.pdu(pdu))
                link.initiatorController.receiveFromPeer(pdu)
                moved = true
            }
        }
    }
}
