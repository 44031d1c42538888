import BLEHost
import RadioWorld
import ReflectorFirmware
@testable import VirtualBoard

/// Two boards in one air driven by two scripted hosts: a test sends commands and ACL data for
/// either board and lets virtual time pass, and reads what each host received.
struct AirBench {
    var air: BoardAir
    /// Everything each host received, oldest first.
    var received: [[HCIPacket]] = [[], []]
    var now: UInt64 = 0

    static let addresses: [UInt64] = [0xC0FF_EE00_00A0, 0xC0FF_EE00_00B0]
    static let handle = BoardController.connectionHandle

    init(distance: Double = 2.0, seed: UInt64 = 1) {
        let a = BoardController(capabilities: .projectReflector(antennas: 1), address: Self.addresses[0], seed: seed)
        let b = BoardController(capabilities: .projectReflector(antennas: 1), address: Self.addresses[1], seed: seed &+ 1)
        air = BoardAir(a, b, scenario: AirScenario(seed: seed, geometry: AirGeometry(distance: distance), channelModel: .freeSpace, snrDB: 40))
        for i in 0..<2 {
            // Every event and LE subevent unmasked, as a real host stack's set-up does.
            command(i, HCIOpcode.setEventMask, Self.mask(0x3FFF_FFFF_FFFF_FFFF))
            command(i, HCIOpcode.leSetEventMask, Self.mask(0x0000_01FF_FFFF_FFFF | 1 << 55))
        }
        received = [[], []]
    }

    static func mask(_ m: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: m >> UInt64(8 * $0)) } }

    /// Sends a command to board `i` and returns the events it produced at once.
    @discardableResult
    mutating func command(_ i: Int, _ op: UInt16, _ p: [UInt8]) -> [HCIPacket] {
        air.receive(HCIPacket(opcode: op, parameters: p), on: i)
        return run(for: 0)[i]
    }

    @discardableResult
    mutating func command<C: HCICommand>(_ i: Int, _ c: C) -> [HCIPacket] { command(i, C.opcode, c.encode()) }

    /// ACL data from host `i` (PB_Flag 00 or 01).
    mutating func acl(_ i: Int, _ data: [UInt8], boundary: UInt8 = 0b00) {
        air.receive(try! HCIPacket.acl(handle: Self.handle, packetBoundary: boundary, data: data), on: i)
    }

    /// Lets `microseconds` pass in 1 ms turns; returns what each host got meanwhile.
    @discardableResult
    mutating func run(for microseconds: UInt64) -> [[HCIPacket]] {
        var got: [[HCIPacket]] = [[], []]
        let end = now + microseconds
        repeat {
            let p = air.poll(now: now)
            for i in 0..<2 { got[i] += p[i] }
            if now >= end { break }
            now = min(end, now + 1_000)
        } while true
        for i in 0..<2 { received[i] += got[i] }
        return got
    }

    /// B advertises connectably (legacy ADV_IND, 20 ms, public address); A connects with LE Create Connection.
    mutating func connect(advertisingData: [UInt8] = [0x02, 0x01, 0x06]) {
        command(1, LESetAdvertisingParameters(intervalMin: 0x20, intervalMax: 0x20))
        command(1, LESetAdvertisingData(data: advertisingData))
        command(1, LESetAdvertisingEnable(enable: true))
        command(0, LECreateConnection(peerAddress: Self.addresses[1]))
        run(for: 50_000)
    }

    /// The decoded events of one type host `i` received.
    func events<E: HCIEvent>(_ i: Int, _ type: E.Type) -> [E] { received[i].compactMap { try? E.decode(packet: $0) } }
    func leEvents<E: LEMetaSubevent>(_ i: Int, _ type: E.Type) -> [E] { received[i].compactMap { try? E.decode(packet: $0) } }
}
