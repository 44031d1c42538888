import BLEHost
import ReflectorFirmware

/// The phone's host (`InitiatorHost`) and the controller probe (`ControllerProbe`) fed what a
/// controller, and the accessory over RAS, send them.
///
/// Input: one flag octet (bit 0: connect first, as on a board; bit 1: require iOS compliance;
/// bit 2: inline PCT), then records `tag | length (2 octets, LE) | octets`: an even tag an HCI event, an odd
/// tag a RAS ranging-data notification. Before each record the host and the probe are asked for
/// their next command.
///
/// Checks: every command either sends is a well-formed command packet; after a failure the host
/// sends no more commands and stays failed; after its outcome the probe sends nothing more.
enum HostTarget {
    static let target = FuzzTarget("host", "InitiatorHost and ControllerProbe: HCI events and RAS notifications", seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        let flags = input.byte()
        var host = InitiatorHost(setup: setup(flags))
        var probe = ControllerProbe()
        for (tag, octets) in input.records() {
            let failedBefore = host.failure != nil
            if let command = host.nextCommand() {
                require(!failedBefore, "the host sent a command after failing")
                require((try? HCIPacket(command: command)) != nil, "the host sent a malformed command")
            }
            let finishedBefore = probe.outcome != nil
            if let command = probe.nextCommand() {
                require(!finishedBefore, "the probe sent a command after its outcome")
                require((try? HCIPacket(command: command)) != nil, "the probe sent a malformed command")
            }
            if tag & 1 == 0 {
                _ = host.handleEvent(octets)
                probe.handleEvent(octets)
            } else {
                _ = host.receiveRangingData(octets)
            }
            require(!failedBefore || host.failure != nil, "the host recovered from a failure")
        }
    }

    static func setup(_ flags: UInt8) -> InitiatorHost.Setup {
        let configuration = CSConfiguration(
            configID: 0, mainMode: .mode2, subMode: nil, mode0Steps: 3, role: .initiator, rttType: .accessAddressOnly,
            csSyncPHY: .le1M, channelMap: .allowed, channelMapRepetition: 1, channelSelection: .algorithm3b, inlinePCT: flags & 4 != 0)
        let parameters = ProcedureParameters(
            maxProcedureLength: 320, minProcedureInterval: 1, maxProcedureInterval: 100, maxProcedureCount: 0,
            minSubeventLength: 1250, maxSubeventLength: 7000, antennaConfiguration: AntennaConfiguration(index: 0)!, phy: 1, preferredPeerAntenna: 0x01)
        let plan = InitiatorHost.ConnectionPlan(peerAddress: 0xC0FF_EE00_0002, longTermKey: Array(0..<16))
        return InitiatorHost.Setup(connectionHandle: 0x0040, configuration: configuration, parameters: parameters,
                                   requireIOSCompliance: flags & 2 != 0, connect: flags & 1 != 0 ? plan : nil)
    }

    static func seeds() -> [[UInt8]] {
        SeedTraffic.loopbacks.map { traffic in
            let records = traffic.initiatorHost.map { input -> (tag: UInt8, octets: [UInt8]) in
                switch input {
                case .event(let e): (0, e)
                case .segment(let s): (1, s)
                }
            }
            return [(traffic.inlinePCT ? 4 : 0) | 2] + FuzzInput.records(records)
        }
    }
}
