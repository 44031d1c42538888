import EmulatorMath
import PhoneEmulation
import ReflectorFirmware

/// The CS controller (`CSController`) in either role, fed what a host and the peer controller
/// send it: HCI command packets, LL control PDUs from the peer, the passing of time, and
/// procedures run over a radio whose measurements come from the input.
///
/// Input: one flag octet (bit 0: the phone's controller, central, with the phone's
/// capabilities, else the accessory's, peripheral; bit 1: Bumble's 34-octet v2 capabilities;
/// bits 2–3: the leftover-bit policy), then records `tag | length (2 octets, LE) | octets`: tag % 4 = 0 an HCI
/// command, 1 an LL PDU from the peer, 2 the clock moves on by (1 + the record's octets) ×
/// 1.25 ms, 3 the next procedure runs with the record's octets scripting the radio.
///
/// Checks, after every record: each event the controller sends is a well-formed HCI event
/// packet (parameters at most 255 octets, parsing back to the same bytes); each LL PDU it sends
/// decodes; every command of at least two octets is answered by a Command Complete or Command
/// Status for its opcode.
enum ControllerTarget {
    static let target = FuzzTarget("controller", "CSController (either role): HCI commands, peer LL PDUs, time, procedures over a scripted radio",
                                   seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        let flags = input.byte()
        var controller = makeController(flags)
        for (tag, octets) in input.records() {
            switch tag % 4 {
            case 0:
                controller.handleCommand(octets)
                let events = checkEvents(&controller)
                if octets.count >= 2 {
                    let opcode = UInt16(octets[0]) | UInt16(octets[1]) << 8
                    require(events.contains { answers($0, opcode) }, "command 0x\(String(opcode, radix: 16)) got no Command Complete or Status")
                }
            case 1:
                controller.receiveFromPeer(octets)
                _ = checkEvents(&controller)
            case 2:
                controller.advance(to: controller.now + UInt64(octets.count + 1) * 1250)
                _ = checkEvents(&controller)
            default:
                runProcedure(&controller, script: octets)
                _ = checkEvents(&controller)
            }
            checkPDUs(&controller)
        }
    }

    static func makeController(_ flags: UInt8) -> CSController<AES128> {
        let phone = flags & 1 != 0
        var c = CSController(capabilities: phone ? .emulatedPhone(antennas: 2) : .projectReflector(antennas: 2), hciVersion: 0x11,
                             address: phone ? 0xC0FF_EE00_0001 : 0xC0FF_EE00_0002,
                             connection: LinkConnection(handle: 0x0040, isCentral: phone, interval: 6), seed: 1)
        if flags & 2 != 0 { c.v2CapabilitiesLayout = .v2WithPHYSpecificRTT }
        c.leftoverBitPolicy = [.regeneratePerStep, .keepWithinSubevent, .keepWithinProcedure, .regeneratePerStep][Int(flags >> 2 & 3)]
        return c
    }

    /// Takes the controller's events and checks each; returns them decoded.
    static func checkEvents(_ controller: inout CSController<AES128>) -> [HCIPacket] {
        controller.takeEvents().map { bytes in
            guard let event = try? HCIPacket(event: bytes) else {
                require(false, "the controller sent an event that does not parse: \(bytes.prefix(8))")
                fatalError()
            }
            require(event.encode() == bytes, "event does not re-encode to its bytes")
            if event.leSubeventCode == LECSSubeventResult.subeventCode || event.leSubeventCode == LECSSubeventResultContinue.subeventCode {
                let role = controller.configurations.compactMap { $0?.role }.first ?? .reflector
                require((try? SubeventResultEvent.decode(packet: event, role: role)) != nil
                        || (try? SubeventResultEvent.decode(packet: event, role: role == .initiator ? .reflector : .initiator)) != nil,
                        "the controller sent a Subevent Result that does not decode")
            }
            return event
        }
    }

    static func checkPDUs(_ controller: inout CSController<AES128>) {
        for pdu in controller.takePDUs() {
            require((try? LLControlPDU.decode(pdu)) != nil || (try? LLVersionInd.decode(pdu)) != nil,
                    "the controller sent an LL PDU that does not decode: \(pdu.prefix(8))")
        }
    }

    /// Command Complete (opcode at parameters 1–2) or Command Status (2–3) for `opcode`.
    static func answers(_ event: HCIPacket, _ opcode: UInt16) -> Bool {
        let p = event.parameters
        switch event.eventCode {
        case HCIEventCode.commandComplete: return p.count >= 3 && UInt16(p[1]) | UInt16(p[2]) << 8 == opcode
        case HCIEventCode.commandStatus: return p.count >= 4 && UInt16(p[2]) | UInt16(p[3]) << 8 == opcode
        default: return false
        }
    }

    static func runProcedure(_ controller: inout CSController<AES128>, script: [UInt8]) {
        guard let start = controller.nextProcedureStart else { return }
        controller.advance(to: start)
        guard controller.beginProcedure() else { return }
        var radio = ScriptedRadio(script: script)
        var steps = 0
        while let step = controller.nextStep(), steps < 100_000 {
            controller.run(step, radio: &radio)
            steps += 1
        }
        controller.endProcedure()
    }

    static func seeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for traffic in SeedTraffic.loopbacks {
            for (flags, inputs) in [(UInt8(1), traffic.initiatorController), (UInt8(0), traffic.reflectorController)] {
                let records = inputs.map { input -> (tag: UInt8, octets: [UInt8]) in
                    switch input {
                    case .command(let c): (0, c)
                    case .pdu(let p): (1, p)
                    case .procedure: (3, Array(0..<32))
                    }
                }
                out.append([flags] + FuzzInput.records(records))
            }
        }
        // Every command the hosts sent, each alone, to both sides.
        for command in Set(SeedTraffic.loopbacks.flatMap(\.commands)).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            out.append([0] + FuzzInput.records([(0, command)]))
        }
        return out
    }
}

/// A radio whose receptions come from a script of octets (cycled): CS_SYNC found or missed with
/// bit errors, RSSI and arrival offset; tones of any amplitude, phase and SNR, as a board's
/// driver might report them. Transmissions are ignored.
struct ScriptedRadio: RadioPort {
    struct Switch: AntennaSwitch {
        mutating func select(antenna: UInt8, at time: UInt64) {}
    }

    var antennaSwitch = Switch()
    let script: [UInt8]
    var at = 0

    init(script: [UInt8]) { self.script = script.isEmpty ? [0] : script }

    mutating func next() -> UInt8 {
        defer { at = (at + 1) % script.count }
        return script[at]
    }

    mutating func next16() -> Int16 { Int16(bitPattern: UInt16(next()) << 8 | UInt16(next())) }

    mutating func tune(channel: UInt8, at time: UInt64) {}
    mutating func transmitSync(accessAddress: UInt32, phy: CSSyncPHY, sequenceBits: Int, at time: UInt64) {}
    mutating func receiveSync(accessAddress: UInt32, phy: CSSyncPHY, sequenceBits: Int, at time: UInt64) -> SyncReception {
        let b = next()
        return SyncReception(detected: b & 1 == 0, accessAddressBitErrors: b >> 1 & 0x1F, rssi: Int8(bitPattern: next()),
                             arrivalOffsetHalfNanoseconds: Int32(next16()) * Int32(b >> 6 + 1))
    }
    mutating func transmitTone(rotation: IQSample, at time: UInt64, duration: UInt32) {}
    mutating func receiveTone(at time: UInt64, duration: UInt32) -> ToneReception {
        // Amplitudes from 0 to far beyond an ADC's range, so saturation paths run too.
        let scale: Float = [1, 1 / 32_768, 1e-3, 64][Int(next() & 3)]
        return ToneReception(iq: IQSample(i: Float(next16()) * scale, q: Float(next16()) * scale),
                             snrDB: Float(Int8(bitPattern: next())), frequencyOffsetPPM: Float(Int8(bitPattern: next())) / 4)
    }
    mutating func compensateFrequency(ppm: Float) {}
}
