import EmulatorMath
@testable import ReflectorFirmware
import Testing
import TestSupport

/// Two controllers driven by raw HCI commands, their LL PDUs moved by hand: the LL procedures,
/// and the error codes a controller answers bad commands and bad peers with.
struct CSControllerTests {
    typealias Pair = ControllerPair

    /// Security start: both sides derive the same DRBG from the exchanged halves.
    @Test func securityStartGivesBothSidesTheSameDRBG() throws {
        var p = Pair()
        p.central(LECSSecurityEnable(connectionHandle: 0x40))
        #expect(p.central.drbg != nil && p.central.drbg?.key == p.peripheral.drbg?.key && p.central.drbg?.nonce == p.peripheral.drbg?.nonce)
        #expect(p.meta(p.centralEvents, 0x2E).count == 1 && p.meta(p.peripheralEvents, 0x2E).count == 1)
        #expect(p.pdus.map { $0[0] } == [0x39, 0x2D])
        // Only the central starts CS security.
        p.peripheral(LECSSecurityEnable(connectionHandle: 0x40))
        #expect(p.peripheralEvents.compactMap { try? CommandStatusEvent.decode(packet: $0) }.last?.status == .commandDisallowed)
    }

    /// Commands with bad handles or parameters get the spec's status codes.
    @Test func badCommandsGetErrorCodes() {
        var p = Pair()
        p.central(LECSSecurityEnable(connectionHandle: 0x41))
        #expect(p.lastCentralStatus == .unknownConnectionIdentifier)
        var config = CSConfiguration(role: .initiator)
        p.central(LECSCreateConfig(connectionHandle: 0x40, configuration: config))
        #expect(p.lastCentralStatus == .commandDisallowed, "remote capabilities unknown")
        p.central(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x40))
        // Everything the LL carries arrives (the 2M RTT N values have no LL field).
        #expect(p.central.remoteCapabilities?.llBody == p.peripheral.localCapabilities.llBody)
        #expect(p.peripheral.remoteCapabilities?.llBody == p.central.localCapabilities.llBody)
        #expect(p.central.remoteCapabilities?.supportsInlinePCT == true)
        config.mode0Steps = 4
        p.central(LECSCreateConfig(connectionHandle: 0x40, configuration: config))
        #expect(p.lastCentralStatus == .invalidHCICommandParameters)
        p.central.handleCommand([0x94, 0x20, 0x09, 0x40])  // Procedure Enable with a wrong length
        p.pump()
        #expect(p.lastCentralStatus == .invalidHCICommandParameters)
        p.central.handleCommand([0x34, 0x12, 0x00])  // an unknown command
        p.pump()
        #expect(p.lastCentralStatus == .unknownCommand)
        p.central(LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: true))
        #expect(p.lastCentralStatus == .commandDisallowed, "no configuration yet")
    }

    /// The remote capabilities event comes in the form the host unmasked, whichever local
    /// capabilities command it used: a stock Bumble host reads the local capabilities with the v2
    /// command but unmasks only the v1 event (0x2C), and must get that one; a host that unmasks
    /// the Core 6.3 event (0x38) gets the v2 form.
    @Test(arguments: [false, true])
    func remoteCapabilitiesFollowTheEventMask(unmaskV2: Bool) throws {
        var p = Pair()
        if unmaskV2 {
            let mask: UInt64 = 0x1F | 0xFF << 43 | 1 << 55
            p.central.handleCommand(HCIPacket(opcode: HCIOpcode.leSetEventMask, parameters: Pair.octets(mask)).encode())
        }
        p.central(LECSReadLocalSupportedCapabilitiesV2())
        p.centralEvents.removeAll()
        p.central(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x40))
        let codes = p.centralEvents.compactMap(\.leSubeventCode)
        #expect(codes == [unmaskV2 ? LESubeventCode.csReadRemoteSupportedCapabilitiesCompleteV2 : LESubeventCode.csReadRemoteSupportedCapabilitiesComplete])
        let event = try #require(p.centralEvents.last)
        let decoded = try LECSReadRemoteSupportedCapabilitiesComplete.decode(packet: event)
        // The v1 form has no IPT times (the last three octets of the LL body).
        let carried = unmaskV2 ? 28 : 25
        #expect(decoded.capabilities.llBody.prefix(carried) == p.peripheral.localCapabilities.llBody.prefix(carried))
        #expect(unmaskV2 == (decoded.capabilities.llBody.suffix(3) == p.peripheral.localCapabilities.llBody.suffix(3)))
    }

    /// The peer refuses a configuration it cannot run: LL_REJECT_EXT_IND with the LL error code,
    /// and the requesting host's Config Complete carries it.
    @Test func peerRejectsAnUnsupportedConfiguration() throws {
        var p = Pair()
        // The central's host wrongly cached that the peer supports mode 3.
        var claimed = p.peripheral.localCapabilities
        claimed.optionalModes = [.mode3]
        p.peripheral = CSController(capabilities: { var c = CSCapabilities.projectReflector(antennas: 2); c.optionalModes = []; return c }(),
                                    address: 2, connection: LinkConnection(handle: 0x40, isCentral: false), seed: 2)
        for c in [HCIPacket(opcode: HCIOpcode.setEventMask, parameters: Pair.octets(1 << 61 | 0x1FFF_FFFF_FFFF)), HCIPacket(opcode: HCIOpcode.leSetEventMask, parameters: Pair.octets(0xFF << 43))] {
            p.peripheral.handleCommand(c.encode())
        }
        p.pump()
        p.central(LECSWriteCachedRemoteSupportedCapabilities(connectionHandle: 0x40, capabilities: claimed))
        p.central(LECSCreateConfig(connectionHandle: 0x40, configuration: CSConfiguration(mainMode: .mode3, role: .initiator)))
        #expect(p.pdus.last.map { Array($0) } == [0x11, 0x30, HCIStatus.unsupportedLMPOrLLParameterValue.rawValue])
        let complete = try LECSConfigComplete.decode(#require(p.meta(p.centralEvents, 0x2F).last))
        #expect(complete.status == .unsupportedLMPOrLLParameterValue)
        #expect(p.central.configurations[0] == nil)
        #expect(p.meta(p.peripheralEvents, 0x2F).isEmpty)
    }

    /// The whole start: configuration on both sides, then procedures agreed with LL_CS_REQ,
    /// LL_CS_RSP and LL_CS_IND; without security first the enable is refused.
    @Test func procedureStartAndTerminate() throws {
        var p = Pair()
        p.central(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x40))
        p.central(LECSCreateConfig(connectionHandle: 0x40, configuration: CSConfiguration(role: .initiator)))
        #expect(p.central.configurations[0]?.role == .initiator && p.peripheral.configurations[0]?.role == .reflector)
        #expect(p.central.configurations[0]?.timing == p.peripheral.configurations[0]?.timing)
        p.central(LECSSetProcedureParameters(connectionHandle: 0x40, configID: 0, parameters: ProcedureParameters(antennaConfiguration: AntennaConfiguration(index: 4)!)))
        #expect(p.lastCentralStatus == .success)
        p.central(LECSSetDefaultSettings(connectionHandle: 0x40, initiatorEnabled: true, reflectorEnabled: false, csSyncAntennaSelection: 1, maxTxPower: 0))
        p.peripheral(LECSSetDefaultSettings(connectionHandle: 0x40, initiatorEnabled: false, reflectorEnabled: true, csSyncAntennaSelection: 1, maxTxPower: 0))
        p.central(LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: true))
        #expect(p.lastCentralStatus == .insufficientSecurity)
        p.central(LECSSecurityEnable(connectionHandle: 0x40))
        p.pdus.removeAll()
        p.central(LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: true))
        #expect(p.pdus.map { $0[0] } == [0x32, 0x33, 0x34])
        let iEnable = try LECSProcedureEnableComplete.decode(#require(p.meta(p.centralEvents, 0x30).last))
        let rEnable = try LECSProcedureEnableComplete.decode(#require(p.meta(p.peripheralEvents, 0x30).last))
        #expect(iEnable == rEnable && iEnable.enabled && iEnable.antennaConfigurationIndex == 4)
        #expect(p.central.nextProcedureStart == p.peripheral.nextProcedureStart)
        // Disable: LL_CS_TERMINATE_REQ / RSP, and both hosts hear "disabled".
        p.pdus.removeAll()
        p.central(LECSProcedureEnable(connectionHandle: 0x40, configID: 0, enable: false))
        #expect(p.pdus.map { $0[0] } == [0x35, 0x3A])
        #expect(try LECSProcedureEnableComplete.decode(#require(p.meta(p.peripheralEvents, 0x30).last)).enabled == false)
        #expect(!p.central.proceduresEnabled && !p.peripheral.proceduresEnabled)
    }

    /// Garbage from the peer: unknown opcodes get LL_UNKNOWN_RSP, malformed known ones
    /// LL_REJECT_EXT_IND; and from the host: every command of two octets or more is answered
    /// by a Command Complete or Command Status for its opcode. Whatever the controller sends
    /// back is well-formed: events that parse and re-encode exactly, PDUs that decode.
    @Test func garbageFromThePeerAndTheHost() {
        var c = Pair().central
        c.receiveFromPeer([0x7E, 1, 2])
        #expect(c.takePDUs() == [[0x07, 0x7E]])
        c.receiveFromPeer([0x30, 1, 2])
        #expect(c.takePDUs() == [[0x11, 0x30, HCIStatus.invalidLMPOrLLParameters.rawValue]])
        var rng = SplitMix64(seed: 77)
        for _ in 0..<2000 {
            c.receiveFromPeer(rng.bytes(rng.below(40)))
            let command = rng.bytes(rng.below(40))
            c.handleCommand(command)
            for pdu in c.takePDUs() {
                #expect((try? LLControlPDU.decode(pdu)) != nil || (try? LLVersionInd.decode(pdu)) != nil, "PDU \(pdu)")
            }
            let events = c.takeEvents().compactMap { bytes -> HCIPacket? in
                let e = try? HCIPacket(event: bytes)
                #expect(e?.encode() == bytes, "event \(bytes)")
                return e
            }
            guard command.count >= 2 else { continue }
            let opcode = UInt16(command[0]) | UInt16(command[1]) << 8
            #expect(events.contains { e in
                (try? CommandCompleteEvent.decode(packet: e))?.opcode == opcode || (try? CommandStatusEvent.decode(packet: e))?.opcode == opcode
            }, "command \(command)")
        }
    }

    /// Events stay masked until the host unmasks them, as the spec's defaults require.
    @Test func eventsAreMaskedByDefault() {
        var c = CSController(capabilities: .projectReflector(), address: 1, connection: LinkConnection(handle: 0x40, isCentral: true), seed: 1)
        var d = CSController(capabilities: .projectReflector(), address: 2, connection: LinkConnection(handle: 0x40, isCentral: false), seed: 2)
        c.handleCommand(LECSSecurityEnable(connectionHandle: 0x40).packet.encode())
        for pdu in c.takePDUs() { d.receiveFromPeer(pdu) }
        for pdu in d.takePDUs() { c.receiveFromPeer(pdu) }
        let events = c.takeEvents().compactMap { try? HCIPacket(event: $0) }
        #expect(events.count == 1 && events[0].eventCode == 0x0F)  // only the Command Status
        #expect(d.drbg != nil)
    }
}
