import BLEHost
import ReflectorFirmware

/// A pending LE (Extended) Create Connection: whom to connect to and the timing to ask for.
struct Initiation: Sendable, Equatable {
    /// Filter_Policy 1: any advertiser on the filter accept list; else `peer`.
    var useAcceptList: Bool
    var peer: DeviceAddress
    var ownAddressType: OwnAddressType
    var interval: UInt16
    var latency: UInt16
    var supervisionTimeout: UInt16
    var extended: Bool

    func accepts(_ advertiser: DeviceAddress, acceptList: Set<DeviceAddress>) -> Bool {
        useAcceptList ? acceptList.contains(advertiser) : advertiser == peer
    }
}

/// Connecting and disconnecting (Core 6.0 Vol 4 Part E §7.1.6, §7.8.12–§7.8.13, §7.8.21,
/// §7.8.66; Vol 6 Part B §4.5, §5.1.4, §5.1.6).
extension BoardController {
    /// LE Create Connection (§7.8.12) and LE Extended Create Connection (§7.8.66): Command
    /// Status, then Connection Complete on both boards when the advertiser's next connectable
    /// event is heard.
    mutating func createConnection(_ op: UInt16, _ p: [UInt8]) {
        guard !connected, initiating == nil else { return status(op, .commandDisallowed) }
        let request: Initiation?
        if op == HCIOpcode.leCreateConnection {
            request = (try? LECreateConnection.decode(p)).map {
                Initiation(useAcceptList: $0.filterPolicy == 1, peer: DeviceAddress($0.peerAddress, type: $0.peerAddressType.rawValue), ownAddressType: $0.ownAddressType,
                           interval: $0.intervalMin, latency: $0.maxLatency, supervisionTimeout: $0.supervisionTimeout, extended: false)
            }
        } else {
            request = (try? LEExtendedCreateConnection.decode(p)).flatMap { c -> Initiation? in
                // The first PHY's parameters (the air has one PHY).
                let phys: [LEExtendedCreateConnection.PHYParameters?] = [c.le1M, c.le2M, c.leCoded]
                guard let phy = phys.compactMap({ $0 }).first else { return nil }
                return Initiation(useAcceptList: c.filterPolicy == 1, peer: DeviceAddress(c.peerAddress, type: c.peerAddressType.rawValue), ownAddressType: c.ownAddressType,
                                  interval: phy.intervalMin, latency: phy.maxLatency, supervisionTimeout: phy.supervisionTimeout, extended: true)
            }
        }
        guard let request else { return status(op, .invalidHCICommandParameters) }
        status(op, .success)
        initiating = request
    }

    /// LE Create Connection Cancel (§7.8.13): Command Complete, then Connection Complete with
    /// Unknown Connection Identifier (0x02) for the cancelled attempt.
    mutating func createConnectionCancel(_ op: UInt16) {
        guard let initiation = initiating else { return complete(op, status: .commandDisallowed) }
        initiating = nil
        complete(op, status: .success)
        connectionComplete(status: .unknownConnectionIdentifier, central: true, peer: initiation.peer, interval: 0, latency: 0, timeout: 0)
    }

    /// The initiator heard its advertiser: CONNECT_IND goes out and the link is up on this side.
    mutating func connect(to ad: Advertisement, _ initiation: Initiation) {
        initiating = nil
        let own = ownAddress(type: initiation.ownAddressType)
        let request = ConnectRequest(initiatorAddress: own.address, initiatorAddressType: own.type, advertiserAddress: ad.address,
                                     advertiserAddressType: ad.addressType, interval: initiation.interval, latency: initiation.latency,
                                     supervisionTimeout: initiation.supervisionTimeout, extended: initiation.extended)
        transmissions.append(.connect(request))
        establish(central: true, peer: DeviceAddress(ad.address, type: ad.addressType), request)
    }

    /// A CONNECT_IND reaches the board: if one of its connectable sets advertises the address it
    /// names, the board is the peripheral of the new link, and that set stops.
    mutating func accept(_ request: ConnectRequest) {
        guard !connected else { return }
        let target = DeviceAddress(request.advertiserAddress, type: request.advertiserAddressType)
        guard let (h, _) = advertisingSets.first(where: { h, set in
            set.enabled && set.connectable && ownAddress(type: set.ownAddressType, setAddress: set.randomAddress) == target
        }) else { return }
        advertisingSets[h]?.enabled = false
        let fromExtendedSet = h != AdvertisingSet.legacyHandle
        establish(central: false, peer: DeviceAddress(request.initiatorAddress, type: request.initiatorAddressType), request,
                  advertisingHandle: fromExtendedSet ? h : 0xFF)
        if fromExtendedSet {
            leMeta(LESubeventCode.advertisingSetTerminated, LEAdvertisingSetTerminated(advertisingHandle: h, connectionHandle: handle).packet)
        }
    }

    /// The link comes up on this side: Connection Complete (the form the host unmasked), the
    /// CS controller connects, and a host that suggested longer data starts the length update.
    mutating func establish(central: Bool, peer: DeviceAddress, _ request: ConnectRequest, advertisingHandle: UInt8 = 0xFF) {
        var local = DataLengths.supported
        local.maxTxOctets = suggestedTxOctets
        local.maxTxTime = suggestedTxTime
        link = Link(isCentral: central, peer: peer, interval: request.interval, latency: request.latency,
                    supervisionTimeout: request.supervisionTimeout, localLengths: local)
        cs.connect(LinkConnection(handle: handle, isCentral: central, interval: max(6, request.interval)))
        connectionComplete(status: .success, central: central, peer: peer, interval: request.interval, latency: request.latency,
                           timeout: request.supervisionTimeout, advertisingHandle: advertisingHandle)
        if suggestedTxOctets > 27 { startLengthUpdate() }
    }

    /// LE Enhanced Connection Complete v2 (0x29), v1 (0x0A) or LE Connection Complete (0x01),
    /// whichever the host unmasked, newest first (§7.7.65.1, §7.7.65.10); 500 ppm central clock
    /// accuracy; v2 names the advertising set a peripheral's link came from (0xFF: none).
    mutating func connectionComplete(status: HCIStatus, central: Bool, peer: DeviceAddress, interval: UInt16, latency: UInt16, timeout: UInt16,
                                     advertisingHandle: UInt8 = 0xFF) {
        let connection = LEConnectionComplete(status: status, connectionHandle: status == .success ? handle : 0, role: central ? .central : .peripheral,
                                              peerAddressType: AddressType(random: peer.type == 1), peerAddress: peer.address, interval: interval,
                                              peripheralLatency: latency, supervisionTimeout: timeout)
        let enhanced = LEEnhancedConnectionComplete(connection)
        if allows(leMeta: LESubeventCode.enhancedConnectionCompleteV2) {
            events.append(LEEnhancedConnectionCompleteV2(connection: enhanced, advertisingHandle: advertisingHandle).packet)
        } else if allows(leMeta: LESubeventCode.enhancedConnectionComplete) {
            events.append(enhanced.packet)
        } else if allows(leMeta: LESubeventCode.connectionComplete) {
            events.append(connection.packet)
        }
    }

    /// LE Read Remote Features (§7.8.21): Command Status, then the feature exchange (LL_FEATURE_REQ
    /// from a central, LL_PERIPHERAL_FEATURE_REQ from a peripheral) and the complete event.
    mutating func readRemoteFeatures(_ op: UInt16, _ p: [UInt8]) {
        guard let link, (try? LEReadRemoteFeatures.decode(p))?.connectionHandle == handle else { return status(op, .unknownConnectionIdentifier) }
        guard link.featureRequestSince == nil else { return status(op, .commandDisallowed) }
        status(op, .success)
        self.link?.featureRequestSince = now
        let features = localFeatures
        send(link.isCentral ? .featureRequest(features) : .peripheralFeatureRequest(features))
    }

    /// The LE features this board reports, its own and the CS controller's.
    var localFeatures: UInt64 { cs.leFeatures | Self.boardFeatures }

    /// Disconnect (§7.1.6): Command Status, LL_TERMINATE_IND with the host's reason to the peer,
    /// and Disconnection Complete with Connection Terminated By Local Host (0x16).
    mutating func disconnect(_ op: UInt16, _ p: [UInt8]) {
        guard connected, let c = try? Disconnect.decode(p), c.connectionHandle == handle else { return status(op, .unknownConnectionIdentifier) }
        status(op, .success)
        send(.terminate(c.reason))
        teardown(reason: .connectionTerminatedByLocalHost, silently: false)
    }

    /// The connection ends on this side: the CS controller tells the host (Disconnection Complete
    /// with `reason`) and drops the connection's CS state; the host's masks stay. `silently`: the
    /// board stops transmitting without LL_TERMINATE_IND, and the peer's supervision timer runs.
    mutating func teardown(reason: HCIStatus, silently: Bool) {
        guard link != nil else { return }
        collectCSOutput()
        link = nil
        cs.loseConnection(reason: reason)
        if silently { transmissions.append(.silence) }
        collectCSOutput()
    }
}
