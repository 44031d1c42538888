@testable import ReflectorFirmware
import Testing

/// The LL procedures as explicit state machines (Core 6.0 Vol 6 Part B §5.1): every one that
/// waits for the peer loses the connection when the answer has not come after T_PRT = 40 s
/// (§5.2), and procedures both sides start at once collide by the rules of §5.3.
struct LLProcedureTests {
    /// A procedure this side starts and then waits on, with whatever must come first.
    enum WaitingProcedure: String, CaseIterable, CustomTestStringConvertible {
        case versionExchange, securityStart, capabilitiesExchange, faeTableRequest
        case configurationCreate, configurationRemove, csStart, csStartAnswered, csTerminate

        var testDescription: String { rawValue }

        /// Which side waits (and loses the connection first).
        var waitingSideIsCentral: Bool { self != .csStartAnswered }

        /// Brings the pair to where the procedure can start, with both sides answering.
        func prepare(_ p: inout ControllerPair) {
            switch self {
            case .versionExchange, .securityStart, .capabilitiesExchange, .faeTableRequest: break
            case .configurationCreate: p.central(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x40))
            case .configurationRemove:
                p.central(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x40))
                p.central(LECSCreateConfig(connectionHandle: 0x40, configuration: CSConfiguration(role: .initiator)))
            case .csStart, .csStartAnswered: p.readyForProcedures()
            case .csTerminate:
                p.readyForProcedures()
                p.central(LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: true))
            }
        }

        /// Silences the peer and starts the procedure from the host.
        func start(_ p: inout ControllerPair) {
            switch self {
            case .csStartAnswered:
                // The peripheral answers the central's LL_CS_REQ, then waits for LL_CS_IND that never comes.
                p.centralIsSilent = true
                p.central(LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: true))
                return
            default: p.peripheralIsSilent = true
            }
            switch self {
            case .versionExchange: p.central(ReadRemoteVersionInformation(connectionHandle: 0x40))
            case .securityStart: p.central(LECSSecurityEnable(connectionHandle: 0x40))
            case .capabilitiesExchange: p.central(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x40))
            case .faeTableRequest: p.central(LECSReadRemoteFAETable(connectionHandle: 0x40))
            case .configurationCreate: p.central(LECSCreateConfig(connectionHandle: 0x40, configuration: CSConfiguration(configID: 1, role: .initiator)))
            case .configurationRemove: p.central(LECSRemoveConfig(connectionHandle: 0x40, configID: 0))
            case .csStart: p.central(LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: true))
            case .csTerminate: p.central(LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: false))
            case .csStartAnswered: break
            }
        }
    }

    /// Disconnection Complete: Status 0x00, Connection_Handle 0x0040, Reason LL Response Timeout.
    static let responseTimeoutEvent: [UInt8] = [0x05, 0x04, 0x00, 0x40, 0x00, 0x22]

    /// A silent peer: the procedure times out after exactly 40 s, not a microsecond earlier. The
    /// host hears Disconnection Complete with reason 0x22; every procedure and all the
    /// connection's CS state are gone, and nothing more reaches the host or the peer.
    @Test(arguments: WaitingProcedure.allCases)
    func silentPeerTimesOutAfterFortySeconds(_ procedure: WaitingProcedure) throws {
        var p = ControllerPair()
        procedure.prepare(&p)
        let started: UInt64 = 1_234_567
        p.advance(to: started)
        procedure.start(&p)
        #expect(p.lastCentralStatus == .success)
        var events = procedure.waitingSideIsCentral ? p.centralEvents.count : p.peripheralEvents.count
        p.advance(to: started + LLProcedureState.responseTimeout - 1)
        #expect(ControllerPair.disconnections(p.centralEvents + p.peripheralEvents).isEmpty, "lost at 39.999999 s")
        #expect(p.central.isConnected && p.peripheral.isConnected)
        p.advance(to: started + LLProcedureState.responseTimeout)
        var waiting = procedure.waitingSideIsCentral ? p.central : p.peripheral
        let hostEvents = Array((procedure.waitingSideIsCentral ? p.centralEvents : p.peripheralEvents)[events...])
        #expect(hostEvents.map { $0.encode() } == [Self.responseTimeoutEvent])
        #expect(waiting.connectionLoss == .llResponseTimeout && !waiting.isConnected)
        #expect(!waiting.proceduresEnabled && waiting.nextProcedureStart == nil)
        #expect(waiting.configurations.allSatisfy { $0 == nil } && waiting.drbg == nil && waiting.remoteCapabilities == nil)
        // Nothing more: later time, commands for the handle and PDUs from the peer meet no connection.
        events = p.centralEvents.count + p.peripheralEvents.count
        p.advance(to: started + 3 * LLProcedureState.responseTimeout)
        #expect(p.centralEvents.count + p.peripheralEvents.count == events)
        waiting.handleCommand(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x40).packet.encode())
        #expect(try ControllerPair.lastStatus(waiting.takeEvents().map { try HCIPacket(event: $0) }) == .unknownConnectionIdentifier)
        waiting.receiveFromPeer(LLCSCapabilitiesReq(capabilities: waiting.localCapabilities).encode())
        #expect(waiting.takePDUs().isEmpty)
    }

    /// Procedures the peer answers end their wait: hours later the link is still up.
    @Test func answeredProceduresNeverTimeOut() {
        var p = ControllerPair()
        p.central(ReadRemoteVersionInformation(connectionHandle: 0x40))
        p.readyForProcedures()
        p.central(LECSReadRemoteFAETable(connectionHandle: 0x40))
        p.central(LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: true))
        p.central(LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: false))
        p.advance(to: 3_600_000_000)
        #expect(p.central.isConnected && p.peripheral.isConnected)
        #expect(ControllerPair.disconnections(p.centralEvents + p.peripheralEvents).isEmpty)
    }

    /// A refusal ends the wait too, and the host hears it as the command's failure.
    @Test func refusedProcedureEndsItsWait() throws {
        var p = ControllerPair()
        p.central.receiveFromPeer(LLRejectExtInd(rejecting: .csConfigReq, errorCode: .commandDisallowed).encode())  // nothing waits: ignored
        #expect(p.central.takeEvents().isEmpty)
        // (The peer's capabilities are not known, so nothing says it has no FAE table.)
        p.peripheralIsSilent = true
        p.central(LECSReadRemoteFAETable(connectionHandle: 0x40))
        #expect(p.lastCentralStatus == .success)
        p.central.receiveFromPeer(LLUnknownRsp(unknownType: LLControlOpcode.csFAEReq.rawValue).encode())
        p.pump()
        let fae = try LECSReadRemoteFAETableComplete.decode(#require(p.meta(p.centralEvents, LECSReadRemoteFAETableComplete.subeventCode).last))
        #expect(fae.status == .unsupportedRemoteFeature)
        p.advance(to: 2 * LLProcedureState.responseTimeout)
        #expect(p.central.isConnected)
    }

    /// A masked Disconnection Complete is not sent, but the connection is lost all the same.
    @Test func maskedDisconnectionIsNotSentButTheLinkGoes() {
        var p = ControllerPair()
        let mask = EventMasks.defaultEvents & ~EventMasks.bit(forEvent: HCIEventCode.disconnectionComplete) | 1 << 61
        p.central.handleCommand(HCIPacket(opcode: HCIOpcode.setEventMask, parameters: ControllerPair.octets(mask)).encode())
        p.peripheralIsSilent = true
        p.central(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x40))
        p.centralEvents.removeAll()
        p.advance(to: LLProcedureState.responseTimeout)
        #expect(p.centralEvents.isEmpty)
        #expect(p.central.connectionLoss == .llResponseTimeout)
    }

    /// A new connection after the loss starts CS afresh, and procedures work on it again.
    @Test func connectBringsUpAFreshConnection() {
        var p = ControllerPair()
        p.peripheralIsSilent = true
        p.central(LECSSecurityEnable(connectionHandle: 0x40))
        p.advance(to: LLProcedureState.responseTimeout)
        #expect(!p.central.isConnected)
        p.central.connect(LinkConnection(handle: 0x41, isCentral: true))
        p.peripheral.connect(LinkConnection(handle: 0x41, isCentral: false))
        p.peripheralIsSilent = false
        p.central(LECSSecurityEnable(connectionHandle: 0x41))
        #expect(p.central.drbg != nil && p.central.drbg?.key == p.peripheral.drbg?.key)
        #expect(p.central.connection.eventCounter == UInt16(truncatingIfNeeded: LLProcedureState.responseTimeout / 7500))
    }

    // MARK: Collisions (§5.3)

    /// Both hosts enable procedures at once: the central rejects the peripheral's LL_CS_REQ with
    /// LL Procedure Collision and carries on; the peripheral answers the central's, reports its
    /// own enable failed with 0x23, and then the procedures the central asked for start on both.
    @Test func crossingProcedureRequestsTheCentralWins() throws {
        var p = ControllerPair()
        p.readyForProcedures()
        p.pdus.removeAll()
        p.centralEvents.removeAll()
        p.peripheralEvents.removeAll()
        let enable = LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: true)
        p.cross(central: enable, peripheral: enable)
        #expect(p.pdus.contains(LLRejectExtInd(rejecting: .csReq, errorCode: .llProcedureCollision).encode()))
        #expect(p.pdus.filter { $0[0] == LLControlOpcode.csRsp.rawValue }.count == 1)
        let centralEnables = try p.meta(p.centralEvents, LECSProcedureEnableComplete.subeventCode).map(LECSProcedureEnableComplete.decode)
        let peripheralEnables = try p.meta(p.peripheralEvents, LECSProcedureEnableComplete.subeventCode).map(LECSProcedureEnableComplete.decode)
        #expect(centralEnables.map(\.status) == [.success] && centralEnables[0].enabled)
        #expect(peripheralEnables.map(\.status).sorted { $0.rawValue < $1.rawValue } == [.success, .llProcedureCollision])
        #expect(peripheralEnables.first { $0.status == .success }?.enabled == true)
        #expect(p.central.nextProcedureStart != nil && p.central.nextProcedureStart == p.peripheral.nextProcedureStart)
        #expect(p.central.llProcedures.start.isInProgress == false && p.peripheral.llProcedures.start.isInProgress == false)
    }

    /// Both hosts create a configuration at once: the central's goes through on both sides,
    /// the peripheral's is rejected with 0x23 and its host hears that.
    @Test func crossingConfigurationRequestsTheCentralWins() throws {
        var p = ControllerPair()
        p.central(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x40))
        p.pdus.removeAll()
        p.cross(central: LECSCreateConfig(connectionHandle: 0x40, configuration: CSConfiguration(configID: 0, role: .initiator)),
                peripheral: LECSCreateConfig(connectionHandle: 0x40, configuration: CSConfiguration(configID: 1, role: .reflector)))
        #expect(p.lastCentralStatus == .success && p.lastPeripheralStatus == .success)
        #expect(p.pdus.contains(LLRejectExtInd(rejecting: .csConfigReq, errorCode: .llProcedureCollision).encode()))
        let central = try p.meta(p.centralEvents, LECSConfigComplete.subeventCode).map(LECSConfigComplete.decode)
        let peripheral = try p.meta(p.peripheralEvents, LECSConfigComplete.subeventCode).map(LECSConfigComplete.decode)
        #expect(central.map(\.status) == [.success] && central[0].configID == 0)
        #expect(peripheral.map { [$0.status.rawValue, $0.configID] } == [[0x00, 0], [0x23, 1]])
        #expect(p.central.configurations[0]?.role == .initiator && p.peripheral.configurations[0]?.role == .reflector)
        #expect(p.central.configurations[1] == nil && p.peripheral.configurations[1] == nil)
        #expect(!p.central.llProcedures.configuration.isBusy && !p.peripheral.llProcedures.configuration.isBusy)
    }

    /// The central enables procedures while the peripheral creates a configuration: the two
    /// cannot run together, so the central rejects the configuration with Different Transaction
    /// Collision (0x2A) and the procedures start.
    @Test func startAndConfigurationCollideAsDifferentTransactions() throws {
        var p = ControllerPair()
        p.readyForProcedures()
        p.pdus.removeAll()
        p.cross(central: LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: true),
                peripheral: LECSCreateConfig(connectionHandle: 0x40, configuration: CSConfiguration(configID: 1, role: .reflector)))
        #expect(p.pdus.contains(LLRejectExtInd(rejecting: .csConfigReq, errorCode: .differentTransactionCollision).encode()))
        let peripheral = try LECSConfigComplete.decode(#require(p.meta(p.peripheralEvents, LECSConfigComplete.subeventCode).last))
        #expect(peripheral.status == .differentTransactionCollision && peripheral.configID == 1)
        #expect(p.central.proceduresEnabled && p.peripheral.proceduresEnabled)
        #expect(p.peripheral.configurations[1] == nil)
    }

    /// And the other way round: the central's configuration wins over the peripheral's enable.
    @Test func configurationAndStartCollideAsDifferentTransactions() throws {
        var p = ControllerPair()
        p.readyForProcedures()
        p.pdus.removeAll()
        p.cross(central: LECSCreateConfig(connectionHandle: 0x40, configuration: CSConfiguration(configID: 1, role: .initiator)),
                peripheral: LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: true))
        #expect(p.pdus.contains(LLRejectExtInd(rejecting: .csReq, errorCode: .differentTransactionCollision).encode()))
        let enable = try LECSProcedureEnableComplete.decode(#require(p.meta(p.peripheralEvents, LECSProcedureEnableComplete.subeventCode).last))
        #expect(enable.status == .differentTransactionCollision && !enable.enabled)
        #expect(!p.central.proceduresEnabled && !p.peripheral.proceduresEnabled)
        #expect(p.central.configurations[1] != nil && p.peripheral.configurations[1] != nil)
    }

    /// While a procedure waits, the host may not start one that would collide with it.
    @Test func hostMayNotStartACollidingProcedure() {
        var p = ControllerPair()
        p.readyForProcedures()
        p.peripheralIsSilent = true
        p.central(LECSCreateConfig(connectionHandle: 0x40, configuration: CSConfiguration(configID: 1, role: .initiator)))
        p.central(LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: true))
        #expect(p.lastCentralStatus == .commandDisallowed)
        p.central(LECSRemoveConfig(connectionHandle: 0x40, configID: 0))
        #expect(p.lastCentralStatus == .commandDisallowed)
    }

    /// Both hosts disable procedures at once: the central rejects the peripheral's
    /// LL_CS_TERMINATE_REQ; the peripheral's procedures stop on the central's request, and each
    /// host hears "disabled" exactly once.
    @Test func crossingTerminateRequestsStopOnce() throws {
        var p = ControllerPair()
        p.readyForProcedures()
        p.central(LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: true))
        p.pdus.removeAll()
        p.centralEvents.removeAll()
        p.peripheralEvents.removeAll()
        let disable = LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: false)
        p.cross(central: disable, peripheral: disable)
        #expect(p.pdus.contains(LLRejectExtInd(rejecting: .csTerminateReq, errorCode: .llProcedureCollision).encode()))
        for events in [p.centralEvents, p.peripheralEvents] {
            let enables = try p.meta(events, LECSProcedureEnableComplete.subeventCode).map(LECSProcedureEnableComplete.decode)
            #expect(enables.map(\.status) == [.success] && !enables[0].enabled)
        }
        #expect(!p.central.proceduresEnabled && !p.peripheral.proceduresEnabled)
        #expect(!p.central.llProcedures.terminate.isBusy && !p.peripheral.llProcedures.terminate.isBusy)
    }

    // MARK: Configuration removal

    /// LE CS Remove Config goes through the peer first: the configuration stays, and the host
    /// hears nothing, until LL_CS_CONFIG_RSP arrives; then both sides drop it and tell their hosts.
    @Test func removeConfigWaitsForTheResponse() throws {
        var p = ControllerPair()
        p.central(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x40))
        p.central(LECSCreateConfig(connectionHandle: 0x40, configuration: CSConfiguration(role: .initiator)))
        p.centralEvents.removeAll()
        p.central.handleCommand(LECSRemoveConfig(connectionHandle: 0x40, configID: 0).packet.encode())
        let before = try p.central.takeEvents().map { try HCIPacket(event: $0) }
        #expect(ControllerPair.lastStatus(before) == .success)
        #expect(p.meta(before, LECSConfigComplete.subeventCode).isEmpty)
        #expect(p.central.configurations[0] != nil && p.central.llProcedures.configuration.request == .remove(configID: 0))
        p.pump()
        let removed = try p.meta(p.centralEvents, LECSConfigComplete.subeventCode).map(LECSConfigComplete.decode)
        #expect(removed.map(\.action) == [.removed] && removed[0].status == .success && removed[0].configID == 0)
        #expect(try LECSConfigComplete.decode(#require(p.meta(p.peripheralEvents, LECSConfigComplete.subeventCode).last)).action == .removed)
        #expect(p.central.configurations[0] == nil && p.peripheral.configurations[0] == nil)
        #expect(p.pdus.suffix(2).map { $0[0] } == [LLControlOpcode.csConfigReq.rawValue, LLControlOpcode.csConfigRsp.rawValue])
    }

    /// A refused removal keeps the configuration and reports the refusal as a removal.
    @Test func refusedRemovalKeepsTheConfiguration() throws {
        var p = ControllerPair()
        p.central(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x40))
        p.central(LECSCreateConfig(connectionHandle: 0x40, configuration: CSConfiguration(role: .initiator)))
        p.peripheralIsSilent = true
        p.central(LECSRemoveConfig(connectionHandle: 0x40, configID: 0))
        p.central.receiveFromPeer(LLRejectExtInd(rejecting: .csConfigReq, errorCode: .commandDisallowed).encode())
        p.pump()
        let refused = try LECSConfigComplete.decode(#require(p.meta(p.centralEvents, LECSConfigComplete.subeventCode).last))
        #expect(refused.status == .commandDisallowed && refused.action == .removed && refused.configID == 0)
        #expect(p.central.configurations[0] != nil)
    }

    // MARK: The state values

    /// T_PRT expires at exactly 40 s after the wait began.
    @Test func responseTimerExpiresAtFortySeconds() {
        let state = LLProcedureState.awaitingResponse(since: 5)
        #expect(!state.hasTimedOut(at: 5 + 39_999_999))
        #expect(state.hasTimedOut(at: 5 + 40_000_000))
        #expect(!LLProcedureState.idle.hasTimedOut(at: .max))
        #expect(!state.hasTimedOut(at: 0))
    }

    /// The collision table of §5.3 as this controller applies it.
    @Test func collisionCodes() {
        #expect(CSProcedureKind.start.collisionCode(with: .start) == .llProcedureCollision)
        #expect(CSProcedureKind.configuration.collisionCode(with: .configuration) == .llProcedureCollision)
        #expect(CSProcedureKind.terminate.collisionCode(with: .terminate) == .llProcedureCollision)
        #expect(CSProcedureKind.configuration.collisionCode(with: .start) == .differentTransactionCollision)
        #expect(CSProcedureKind.start.collisionCode(with: .configuration) == .differentTransactionCollision)
        #expect(CSProcedureKind.terminate.collisionCode(with: .configuration) == nil)
    }

    /// Disconnection Complete round-trips its four octets.
    @Test func disconnectionCompleteCodec() throws {
        let e = DisconnectionComplete(connectionHandle: 0x0040, reason: .llResponseTimeout)
        #expect(e.packet.encode() == Self.responseTimeoutEvent)
        #expect(try DisconnectionComplete.decode(packet: HCIPacket(event: Self.responseTimeoutEvent)) == e)
        #expect(throws: DecodeError.self) { try DisconnectionComplete.decode([0x00, 0x40, 0x00]) }
        #expect(throws: DecodeError.self) { try DisconnectionComplete.decode([0x00, 0x40, 0xF0, 0x22]) }
    }
}
