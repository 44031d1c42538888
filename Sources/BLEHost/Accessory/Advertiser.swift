import ReflectorFirmware

/// The accessory's advertising (Core 6.0 Vol 4 Part E §7.8.4–§7.8.9, legacy advertising, which
/// every LE controller takes): its static random address, connectable undirected advertising
/// (ADV_IND) from it, the data an iPhone's scan looks for (flags, the Ranging Service UUID
/// first, the name as far as it fits; the whole name in the scan response), and advertising
/// again after each disconnection, as a peripheral that wants to be found does.
public struct Advertiser: Sendable {
    public struct Parameters: Sendable, Equatable {
        /// The static random address (two top bits 11).
        public var address: UInt64
        public var name: String
        /// 16-bit service UUIDs, in order; the Ranging Service is put first.
        public var services: [UInt16]
        /// Advertising interval, 0.625 ms units.
        public var interval: ClosedRange<UInt16>
    }

    public enum Output: Sendable, Equatable {
        /// Advertising is on.
        case advertising
        /// The controller refused a command advertising needs.
        case failed(command: UInt16, HCIStatus)
    }

    public let parameters: Parameters
    private var started = false
    /// The commands sent and not yet answered.
    private var pending: [UInt16] = []

    public init(_ parameters: Parameters) { self.parameters = parameters }

    /// Flags (LE General Discoverable, BR/EDR not supported), the complete list of 16-bit
    /// service UUIDs (the Ranging Service first, as many as fit), and the name as far as it fits.
    public static func advertisingData(_ p: Parameters) -> [UInt8] {
        var data = AdvertisingData()
        data.append(.flags, [AdvertisingData.generalDiscoverableLEOnly])
        let uuids = [RASUUID.rangingService] + p.services.filter { $0 != RASUUID.rangingService }
        data.appendServices(uuids.prefix(12))
        data.appendName(p.name)
        return data.octets
    }

    /// The complete name, in the scan response.
    public static func scanResponse(_ p: Parameters) -> [UInt8] {
        var data = AdvertisingData()
        data.appendName(p.name)
        return data.octets
    }

    /// Starts advertising, once the controller is set up.
    public mutating func start(_ core: inout HostCore) -> [Output] {
        guard !started else { return [] }
        started = true
        return queue([
            LESetRandomAddress(address: parameters.address).packet,
            LESetAdvertisingParameters(intervalMin: parameters.interval.lowerBound, intervalMax: parameters.interval.upperBound,
                                       advertisingType: .connectableUndirected, ownAddressType: .random).packet,
            LESetAdvertisingData(data: Self.advertisingData(parameters)).packet,
            LESetScanResponseData(data: Self.scanResponse(parameters)).packet,
            LESetAdvertisingEnable(enable: true).packet,
        ], &core)
    }

    /// The controller stops advertising when a connection comes up (§7.8.9); after it goes
    /// down, advertising starts again.
    public mutating func handle(_ event: HostEvent, _ core: inout HostCore) -> [Output] {
        switch event {
        case .commandAnswered(let a):
            guard let i = pending.firstIndex(of: a.opcode) else { return [] }
            pending.remove(at: i)
            if a.status != .success { return [.failed(command: a.opcode, a.status)] }
            return a.opcode == HCIOpcode.leSetAdvertisingEnable && core.connection == nil ? [.advertising] : []
        case .disconnected where started && core.connection == nil:
            return queue([LESetAdvertisingEnable(enable: true).packet], &core)
        default:
            return []
        }
    }

    /// Starts over after a controller reset: `start` sends everything again.
    public mutating func restart() {
        started = false
        pending = []
    }

    private mutating func queue(_ packets: [HCIPacket], _ core: inout HostCore) -> [Output] {
        for p in packets {
            let opcode = p.opcode ?? 0
            guard core.scheduler.enqueue(p) else { return [.failed(command: opcode, .unknownCommand)] }
            pending.append(opcode)
        }
        return []
    }
}
