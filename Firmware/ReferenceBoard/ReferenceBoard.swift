#if !REFERENCE_IMAGE
import ReflectorFirmware
#endif

/// A stand-in for a board's firmware image, compiled only by `scripts/embedded-build`: the
/// reflector's controller on the software `AES128`, with a radio and an antenna switch that do
/// nothing, driven the way a board's main loop drives it (HCI commands from the UART, LL PDUs
/// from the link layer, one CS procedure at a time).
///
/// Embedded Swift emits generic code only where it is used with concrete types, so the
/// controller, planner and DRBG (generic over their `BlockCipher`) appear here, specialised, as
/// they would in a real image; the size report counts this object beside the modules'. It
/// also proves that the whole generic API specialises for the microcontroller.
public struct ReferenceBoard {
    /// The pins of a board's RF switch; writes go nowhere.
    struct Pins: GPIOPort {
        mutating func write(pattern: UInt32, mask: UInt32, at time: UInt64) {}
    }

    /// A radio that hears nothing: every CS_SYNC is missed and every tone is silence.
    struct SilentRadio: RadioPort {
        var antennaSwitch = GPIOAntennaSwitch(port: Pins(), mask: 0b11, patterns: [0b00, 0b01, 0b10, 0b11])
        mutating func tune(channel: UInt8, at time: UInt64) {}
        mutating func transmitSync(accessAddress: UInt32, phy: CSSyncPHY, sequenceBits: Int, at time: UInt64) {}
        mutating func receiveSync(accessAddress: UInt32, phy: CSSyncPHY, sequenceBits: Int, at time: UInt64) -> SyncReception { .missed }
        mutating func transmitTone(rotation: IQSample, at time: UInt64, duration: UInt32) {}
        mutating func receiveTone(at time: UInt64, duration: UInt32) -> ToneReception {
            ToneReception(iq: IQSample(i: 0, q: 0), snrDB: 0)
        }
        mutating func compensateFrequency(ppm: Float) {}
    }

    var controller: CSController<AES128>
    var radio = SilentRadio()
    var host = ReflectorHost(connectionHandle: 0x0040)

    public init(seed: UInt64) {
        controller = CSController(capabilities: .projectReflector(antennas: 4), address: 0xC0FF_EE00_0002,
                                  connection: LinkConnection(handle: 0x0040, isCentral: false), seed: seed)
    }

    /// One HCI command from the host; returns the events for it.
    public mutating func hostCommand(_ bytes: [UInt8]) -> [[UInt8]] {
        controller.handleCommand(bytes)
        return controller.takeEvents()
    }

    /// One LL control PDU from the peer; returns the PDUs to send back.
    public mutating func peerPDU(_ bytes: [UInt8]) -> [[UInt8]] {
        controller.receiveFromPeer(bytes)
        return controller.takePDUs()
    }

    /// The accessory's own host: its next command, and what it makes of an event.
    public mutating func hostAppCommand() -> [UInt8]? { host.nextCommand() }
    public mutating func hostAppEvent(_ bytes: [UInt8]) -> Int { host.handleEvent(bytes).count }

    /// Runs the next CS procedure, if one is due by `time`, on the radio.
    public mutating func runProcedure(at time: UInt64) {
        controller.advance(to: time)
        guard controller.beginProcedure() else { return }
        while let step = controller.nextStep() { controller.run(step, radio: &radio) }
        controller.endProcedure()
    }
}
