import Foundation
import RadioWorld
import ReflectorFirmware

/// Two boards in one simulated air: what one board's link layer transmits reaches the other
/// (advertising, connecting, data and control PDUs), and once both have CS procedures enabled
/// with matching starts, each procedure runs between their CS controllers over the air's
/// radios, with whichever side the configuration made the initiator. The hosts of the two
/// boards do everything else. Pure and seeded: packets in, packets out, time given.
public struct BoardAir {
    /// Board A (index 0) and board B (index 1).
    public private(set) var a: BoardController
    public private(set) var b: BoardController
    private var initiatorRadio: AirRadio
    private var reflectorRadio: AirRadio
    /// The signal strength each board hears the other at (dBm), from the distance.
    public let rssi: Int8
    /// The virtual clock, µs.
    public private(set) var clock: UInt64 = 0
    public private(set) var proceduresRun = 0
    /// When the last procedure run was due to start (µs on the air's clock): a subevent result
    /// a host receives was ready from then, so its lateness is measured from it.
    public private(set) var lastProcedureStart: UInt64?
    /// A board whose data PDUs no longer arrive (its peer's link layer stopped answering): for
    /// tests and demonstrations of a procedure response timeout.
    public var deafBoard: Int?
    /// A board that has left the air (out of range): nothing it sends arrives and nothing
    /// reaches it, so both boards' supervision timers end their link.
    public var absentBoard: Int? {
        didSet {
            guard absentBoard != nil, oldValue == nil else { return }
            a.receive(.silence)
            b.receive(.silence)
        }
    }

    /// `a` and `b` share the air of `scenario`.
    public init(_ a: BoardController, _ b: BoardController, scenario: AirScenario) {
        self.a = a
        self.b = b
        let air = Air(scenario: scenario)
        initiatorRadio = air.radio(.initiator)
        reflectorRadio = air.radio(.reflector)
        rssi = Self.rssi(distance: scenario.geometry.distance)
    }

    /// Free-space loss at 2.44 GHz from 0 dBm: 40.2 dB at 1 m, 20 dB a decade (Friis).
    static func rssi(distance: Double) -> Int8 {
        Int8(max(-127, min(20, (-40.2 - 20 * log10(max(distance, 0.01))).rounded())))
    }

    /// Board `index` (0: A, 1: B).
    public subscript(index: Int) -> BoardController {
        get { index == 0 ? a : b }
        set { if index == 0 { a = newValue } else { b = newValue } }
    }

    /// Changes board `index` in place (settings such as the capabilities layout).
    public mutating func withBoard<T>(_ index: Int, _ body: (inout BoardController) -> T) -> T {
        index == 0 ? body(&a) : body(&b)
    }

    /// A packet from board `index`'s host: a command or ACL data.
    public mutating func receive(_ packet: HCIPacket, on index: Int) {
        withBoard(index) { board in
            switch packet.indicator {
            case .command: board.handleCommand(packet.bytes)
            case .aclData: board.handleACL(packet)
            default: break
            }
        }
    }

    /// Lets time pass to `now` (µs): advertising events, connections, data and control PDUs
    /// between the boards, due CS procedures. Returns each board's packets for its host.
    public mutating func poll(now: UInt64) -> [[HCIPacket]] {
        clock = max(clock, now)
        a.advance(to: clock)
        b.advance(to: clock)
        var out: [[HCIPacket]] = [[], []]
        exchange(&out)
        runDueProcedures(&out)
        return out
    }

    /// When the next CS procedure is due (µs), if both boards have agreed one: a caller that
    /// sleeps between polls wakes for it.
    public var nextProcedureStart: UInt64? {
        guard let start = a.cs.nextProcedureStart, b.cs.nextProcedureStart == start else { return nil }
        return start
    }

    /// Moves transmissions between the boards until neither has more (a control PDU's answer
    /// within the same turn, as in one connection event).
    private mutating func exchange(_ out: inout [[HCIPacket]]) {
        for _ in 0..<64 {
            var moved = false
            for pdu in a.takeTransmissions() {
                moved = true
                if absentBoard != nil { continue }
                if case .data = pdu, deafBoard == 1 { continue }
                b.receive(pdu, rssi: rssi)
            }
            for pdu in b.takeTransmissions() {
                moved = true
                if absentBoard != nil { continue }
                if case .data = pdu, deafBoard == 0 { continue }
                a.receive(pdu, rssi: rssi)
            }
            out[0] += a.takeEvents()
            out[1] += b.takeEvents()
            if !moved { break }
        }
    }

    /// Runs every procedure both controllers have due now, then lets their results travel.
    private mutating func runDueProcedures(_ out: inout [[HCIPacket]]) {
        while let start = a.cs.nextProcedureStart, start <= clock, b.cs.nextProcedureStart == start,
              let role = a.cs.procedureRole, b.cs.procedureRole != role, a.connected, b.connected, absentBoard == nil {
            if role == .initiator {
                _ = ProcedureExchange.run(initiator: &a.cs, reflector: &b.cs, initiatorRadio: &initiatorRadio, reflectorRadio: &reflectorRadio)
            } else {
                _ = ProcedureExchange.run(initiator: &b.cs, reflector: &a.cs, initiatorRadio: &initiatorRadio, reflectorRadio: &reflectorRadio)
            }
            proceduresRun += 1
            lastProcedureStart = start
            exchange(&out)
        }
    }
}
