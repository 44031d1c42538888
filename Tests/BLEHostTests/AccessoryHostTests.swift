@testable import BLEHost
import ReflectorFirmware
import Testing

/// The accessory's host in process, its controller played by the test: the set-up commands and
/// the advertising data octet for octet; a bonded phone reconnecting (by identity address, and
/// behind a resolvable private address its IRK resolves) gets its LTK, an unknown one a
/// Negative Reply; RAS unreadable before encryption, with a Security Request; LE signalling
/// requests rejected; a pairing refused after a failure (Repeated Attempts) until the back-off
/// passes.
@Suite struct AccessoryHostTests {
    static let phoneIRK: [UInt8] = Array(0x40..<0x50)
    static let bond = Bond(peer: PairingAddress(0xF0F1_F2F3_F4F5, random: true), peerIRK: phoneIRK, longTermKey: Array(0xA0..<0xB0), authenticated: false)
    static let handle: UInt16 = 0x0040

    static func host(bonds: [Bond] = [bond], pairable: Bool = true) -> AccessoryHost {
        var c = AccessoryHost.Configuration(identity: .init(name: "tag", manufacturer: "m", model: "x", firmwareRevision: "1"),
                                            address: 0xC300_0000_0001, irk: Array(0..<16))
        c.pairable = pairable
        return AccessoryHost(configuration: c, bonds: bonds, random: .repeating(0x11))
    }

    /// Answers every set-up command with success; the commands, in order.
    /// LE_Features with Channel Sounding (bit 46), as LE Read Local Supported Features returns them.
    static let csFeatures: [UInt8] = [0, 0, 0, 0, 0, 0, 0x40, 0, 0]

    /// Answers every set-up command with success (the features with CS unless `withoutCS`, the
    /// supported commands `commands` when given); the commands sent.
    static func setUp(_ host: inout AccessoryHost, withoutCS: Bool = false, commands: [UInt8]? = nil, refusing refused: UInt16? = nil) -> [HCIPacket] {
        var sent: [HCIPacket] = []
        while let c = host.nextCommand() {
            sent.append(c)
            var ret: [UInt8] = c.opcode == HCIOpcode.leReadBufferSize ? [0, 251, 0, 4] : [0]
            if c.opcode == HCIOpcode.leReadLocalSupportedFeatures { ret = withoutCS ? [0, 0, 0, 0, 0, 0, 0, 0, 0] : Self.csFeatures }
            if c.opcode == HCIOpcode.readLocalSupportedCommands, let commands { ret = [0] + commands }
            if c.opcode == refused { ret = [HCIStatus.unknownCommand.rawValue] }
            _ = host.handleEvent(CommandCompleteEvent(opcode: c.opcode ?? 0, returnParameters: ret).packet, now: 0)
        }
        return sent
    }

    static func connect(_ host: inout AccessoryHost, peer: PairingAddress) -> [AccessoryHost.Output] {
        host.handleEvent(LEConnectionComplete(connectionHandle: handle, role: .peripheral, peerAddressType: AddressType(random: peer.isRandom), peerAddress: peer.address, interval: 6).packet, now: 0)
    }

    /// The ACL the host sends now, as L2CAP frames (whole: the test's buffers are large).
    static func frames(_ host: inout AccessoryHost) -> [L2CAPFrame] {
        var r = L2CAPReassembler(maximumPayload: 1024)
        return host.nextACL().flatMap { p in r.add(boundary: p.aclPacketBoundary!, p.parameters).compactMap { if case .frame(let f) = $0 { f } else { nil } } }
    }

    static func acl(_ channel: UInt16, _ payload: [UInt8]) -> HCIPacket {
        try! HCIPacket.acl(handle: handle, data: L2CAPFrame(channel: channel, payload: payload).encode()!)
    }

    @Test func setUpAndAdvertising() {
        var host = Self.host()
        let sent = Self.setUp(&host)
        #expect(sent.compactMap(\.opcode) == [HCIOpcode.reset, HCIOpcode.readLocalSupportedCommands, HCIOpcode.setEventMask, HCIOpcode.leSetEventMask,
                                       HCIOpcode.leReadBufferSize, HCIOpcode.readBDAddr, HCIOpcode.leReadLocalSupportedFeatures, HCIOpcode.leSetHostFeature,
                                       HCIOpcode.leSetRandomAddress, HCIOpcode.leSetAdvertisingParameters,
                                       HCIOpcode.leSetAdvertisingData, HCIOpcode.leSetScanResponseData, HCIOpcode.leSetAdvertisingEnable])
        // CS host support: feature bit 47, on.
        #expect(sent[7].parameters == [47, 1])
        // The address octets little-endian; advertising every 100–150 ms, ADV_IND, from the random address.
        #expect(sent[8].parameters == [0x01, 0, 0, 0, 0, 0xC3])
        #expect(Array(sent[9].parameters.prefix(6)) == [0xA0, 0x00, 0xF0, 0x00, 0x00, 0x01])
        // Flags, the Ranging Service UUID, the name: 02 01 06 | 03 03 5B 18 | 04 09 't' 'a' 'g'.
        let data: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0x5B, 0x18, 0x04, 0x09, 0x74, 0x61, 0x67]
        #expect(sent[10].parameters == [UInt8(data.count)] + data + [UInt8](repeating: 0, count: 31 - data.count))
    }

    /// A controller without Channel Sounding: set-up skips CS host support and says why, the
    /// accessory still advertises and takes connections, and sends no CS command on them.
    @Test func aBoardWithoutCSStillAdvertisesAndServes() {
        var host = Self.host()
        var outputs: [AccessoryHost.Output] = []
        var sent: [HCIPacket] = []
        while let c = host.nextCommand() {
            sent.append(c)
            let ret: [UInt8] = c.opcode == HCIOpcode.leReadLocalSupportedFeatures ? [0, 0, 0, 0, 0, 0, 0, 0, 0] : [0]
            outputs += host.handleEvent(CommandCompleteEvent(opcode: c.opcode ?? 0, returnParameters: ret).packet, now: 0)
        }
        #expect(!sent.contains { $0.opcode == HCIOpcode.leSetHostFeature })
        #expect(outputs.contains(.channelSoundingUnavailable("the board does not support Channel Sounding (LE feature bit 46 is clear)")))
        #expect(outputs.contains(.advertising))
        #expect(Self.connect(&host, peer: Self.bond.peer) == [.connected(peer: Self.bond.peer)])
        #expect(host.nextCommand() == nil)  // no LE CS Set Default Settings
    }

    /// A controller that lists commands: what it does not list is never sent; one it refuses
    /// (LE CS Set Default Settings answered Unknown HCI Command) is said once, and the
    /// accessory goes on serving.
    @Test func onlyListedCommandsAreSentAndARefusalIsAMessage() {
        // Everything the accessory needs but LE Set Host Feature (44.1).
        let needed = [HCIOpcode.reset, HCIOpcode.setEventMask, HCIOpcode.leSetEventMask, HCIOpcode.leReadBufferSize, HCIOpcode.readBDAddr,
                      HCIOpcode.leReadLocalSupportedFeatures, HCIOpcode.leSetRandomAddress, HCIOpcode.leSetAdvertisingParameters,
                      HCIOpcode.leSetAdvertisingData, HCIOpcode.leSetScanResponseData, HCIOpcode.leSetAdvertisingEnable,
                      HCIOpcode.leLongTermKeyRequestReply, HCIOpcode.leLongTermKeyRequestNegativeReply, HCIOpcode.leCSSetDefaultSettings]
        var host = Self.host()
        let sent = Self.setUp(&host, commands: SupportedCommands.bitmap(of: needed))
        #expect(!sent.contains { $0.opcode == HCIOpcode.leSetHostFeature })
        #expect(host.channelSoundingUnavailable == "the board does not list LE Set Host Feature among its supported commands")
        // With CS listed and supported, a refusal of LE CS Set Default Settings on the connection is a message.
        var other = Self.host()
        _ = Self.setUp(&other)
        _ = Self.connect(&other, peer: Self.bond.peer)
        let c = other.nextCommand()
        #expect(c?.opcode == HCIOpcode.leCSSetDefaultSettings)
        let out = other.handleEvent(CommandCompleteEvent(opcode: HCIOpcode.leCSSetDefaultSettings, returnParameters: [HCIStatus.unknownCommand.rawValue]).packet, now: 1)
        #expect(out == [.channelSoundingUnavailable("the board refused LE CS Set Default Settings: unknownCommand (0x1)")])
        #expect(other.isConnected)
    }

    @Test func aBondedPhoneGetsItsKeyAndAnUnknownOneDoesNot() throws {
        // By its identity address, and behind a fresh resolvable private address.
        let rpa = try #require(ResolvablePrivateAddress.make(irk: Self.phoneIRK, random: 0x12345))
        #expect(ResolvablePrivateAddress.isResolvable(rpa) && rpa != Self.bond.peer)
        for peer in [Self.bond.peer, rpa] {
            var host = Self.host()
            _ = Self.setUp(&host)
            #expect(Self.connect(&host, peer: peer) == [.connected(peer: peer)])
            _ = host.handleEvent(LELongTermKeyRequest(connectionHandle: Self.handle).packet, now: 1)
            #expect(host.nextCommand() == LELongTermKeyRequestReply(connectionHandle: Self.handle, longTermKey: Self.bond.longTermKey).packet)
            let out = host.handleEvent(EncryptionChange(connectionHandle: Self.handle, enabled: true).packet, now: 1)
            #expect(out == [.encrypted(bond: Self.bond)])
        }
        // Someone else's RPA (another IRK), and a bonded address asking with a legacy EDIV: Negative Reply.
        let stranger = try #require(ResolvablePrivateAddress.make(irk: Array(repeating: 0x77, count: 16), random: 0x12345))
        var host = Self.host()
        _ = Self.setUp(&host)
        _ = Self.connect(&host, peer: stranger)
        #expect(host.handleEvent(LELongTermKeyRequest(connectionHandle: Self.handle).packet, now: 1) == [.unknownKey])
        #expect(host.nextCommand() == LELongTermKeyRequestNegativeReply(connectionHandle: Self.handle).packet)
        var legacy = Self.host()
        _ = Self.setUp(&legacy)
        _ = Self.connect(&legacy, peer: Self.bond.peer)
        _ = legacy.handleEvent(LELongTermKeyRequest(connectionHandle: Self.handle, randomNumber: 7, encryptedDiversifier: 9).packet, now: 1)
        #expect(legacy.nextCommand() == LELongTermKeyRequestNegativeReply(connectionHandle: Self.handle).packet)
    }

    /// An LE legacy bond is asked for by its EDIV and Rand (Core 6.0 Vol 3 Part H §2.4.4.2):
    /// the pair it distributed gets its key; another pair, or 0 and 0, a Negative Reply.
    @Test func aLegacyBondIsFoundByItsEDIVAndRand() {
        var bond = Self.bond
        bond.ediv = 0x1234
        bond.rand = 0x0102_0304_0506_0708
        for (rand, ediv, answered) in [(bond.rand, bond.ediv, true), (bond.rand, UInt16(0x1235), false), (UInt64(0), UInt16(0), false)] {
            var host = Self.host(bonds: [bond])
            _ = Self.setUp(&host)
            _ = Self.connect(&host, peer: bond.peer)
            _ = host.handleEvent(LELongTermKeyRequest(connectionHandle: Self.handle, randomNumber: rand, encryptedDiversifier: ediv).packet, now: 1)
            #expect(host.nextCommand() == (answered ? LELongTermKeyRequestReply(connectionHandle: Self.handle, longTermKey: bond.longTermKey).packet
                : LELongTermKeyRequestNegativeReply(connectionHandle: Self.handle).packet), "EDIV \(ediv), Rand \(rand)")
        }
    }

    /// Reading RAS Features before encryption: Insufficient Encryption, and the accessory asks
    /// the phone to secure the link (Security Request: bonding, SC). Reading the device name works.
    @Test func rasIsUnreadableBeforeEncryption() {
        var host = Self.host()
        _ = Self.setUp(&host)
        _ = Self.connect(&host, peer: Self.bond.peer)
        let features = host.rasHandles.features
        _ = host.handleACL(Self.acl(L2CAPFrame.attributeProtocol, ATTPDU.readRequest(handle: features).encode()), now: 1)
        let out = Self.frames(&host)
        #expect(out.contains(L2CAPFrame(channel: L2CAPFrame.attributeProtocol, payload: [0x01, 0x0A, UInt8(features & 0xFF), UInt8(features >> 8), 0x0F])))
        #expect(out.contains(L2CAPFrame(channel: L2CAPFrame.securityManager, payload: [0x0B, 0x09])))
        _ = host.handleACL(Self.acl(L2CAPFrame.attributeProtocol, ATTPDU.readRequest(handle: 3).encode()), now: 1)
        #expect(Self.frames(&host) == [L2CAPFrame(channel: L2CAPFrame.attributeProtocol, payload: [0x0B] + Array("tag".utf8))])
    }

    /// A bonded phone's subscription outlives the connection (Vol 3 Part G §3.3.3.3): it
    /// subscribes to Real-time Ranging Data, leaves (the bond is updated with the descriptor's
    /// value), comes back behind a new resolvable private address and finds its descriptor as it
    /// left it; a stranger's is clear.
    @Test func aBondedPhonesSubscriptionIsKept() {
        var host = Self.host()
        _ = Self.setUp(&host)
        let cccd = host.rasHandles.realTime + 1
        _ = Self.connect(&host, peer: Self.bond.peer)
        _ = host.handleEvent(EncryptionChange(connectionHandle: Self.handle, enabled: true).packet, now: 1)
        _ = host.handleACL(Self.acl(L2CAPFrame.attributeProtocol, ATTPDU.writeRequest(handle: cccd, value: [0x01, 0x00]).encode()), now: 1)
        #expect(Self.frames(&host).map(\.payload) == [[0x13]])
        let left = host.handleEvent(DisconnectionComplete(connectionHandle: Self.handle, reason: .remoteUserTerminatedConnection).packet, now: 2)
        var updated = Self.bond
        updated.configurations = [cccd: 0x0001]
        #expect(left.contains(.bondUpdated(updated)) && host.bonds == [updated], "\(left)")
        // Back, behind a fresh resolvable private address.
        let rpa = ResolvablePrivateAddress.make(irk: Self.phoneIRK, random: 0x2468)!
        _ = Self.connect(&host, peer: rpa)
        _ = host.handleEvent(EncryptionChange(connectionHandle: Self.handle, enabled: true).packet, now: 3)
        // A fresh stranger starts with every descriptor clear.
        var other = Self.host(bonds: [])
        _ = Self.setUp(&other)
        _ = Self.connect(&other, peer: PairingAddress(0xC0FF_EE00_0002, random: false))
        _ = other.handleACL(Self.acl(L2CAPFrame.attributeProtocol, ATTPDU.readRequest(handle: cccd).encode()), now: 1)
        #expect(Self.frames(&other).contains { $0.payload == [0x01, 0x0A, UInt8(cccd & 0xFF), UInt8(cccd >> 8), 0x0F] })
        _ = other.handleEvent(EncryptionChange(connectionHandle: Self.handle, enabled: true).packet, now: 1)
        _ = other.handleACL(Self.acl(L2CAPFrame.attributeProtocol, ATTPDU.readRequest(handle: cccd).encode()), now: 1)
        #expect(Self.frames(&other).map(\.payload) == [[0x0B, 0x00, 0x00]])
        // The returning bonded phone reads its descriptor back as it left it.
        _ = host.handleACL(Self.acl(L2CAPFrame.attributeProtocol, ATTPDU.readRequest(handle: cccd).encode()), now: 3)
        #expect(Self.frames(&host).map(\.payload) == [[0x0B, 0x01, 0x00]])
    }

    /// LE signalling: a Connection Parameter Update Request (0x12) is rejected, Command Not
    /// Understood, with its identifier; a response is not answered.
    @Test func signallingRequestsAreRejected() {
        var host = Self.host()
        _ = Self.setUp(&host)
        _ = Self.connect(&host, peer: Self.bond.peer)
        _ = host.handleACL(Self.acl(L2CAPFrame.signalling, [0x12, 0x07, 0x08, 0x00, 0x06, 0x00, 0x06, 0x00, 0x00, 0x00, 0x90, 0x01]), now: 1)
        #expect(Self.frames(&host) == [L2CAPFrame(channel: L2CAPFrame.signalling, payload: [0x01, 0x07, 0x02, 0x00, 0x00, 0x00])])
        _ = host.handleACL(Self.acl(L2CAPFrame.signalling, [0x13, 0x08, 0x02, 0x00, 0x00, 0x00]), now: 1)
        #expect(Self.frames(&host).isEmpty)
    }

    /// A failed pairing (a Pairing Confirm out of turn) makes the next attempt wait: Repeated
    /// Attempts (0x09) within 2 s, a fresh pairing after it. Not pairable: Pairing Not Supported.
    @Test func repeatedAttemptsBackOffAndNotPairableRefuses() {
        let request = SMPPDU.pairingRequest(PairingFeatures(ioCapability: .noInputNoOutput, authRequirements: [.bonding, .secureConnections],
                                                            initiatorKeys: [.identityKey], responderKeys: [.identityKey])).encode()
        var host = Self.host()
        _ = Self.setUp(&host)
        _ = Self.connect(&host, peer: Self.bond.peer)
        _ = host.handleACL(Self.acl(L2CAPFrame.securityManager, request), now: 10)
        _ = host.handleACL(Self.acl(L2CAPFrame.securityManager, SMPPDU.pairingDHKeyCheck(Key128(wire: 0..<16)).encode()), now: 10)
        let first = Self.frames(&host).filter { $0.channel == L2CAPFrame.securityManager }.map(\.payload)
        #expect(first.first?.first == 0x02 && first.last == [0x05, 0x08])
        _ = host.handleACL(Self.acl(L2CAPFrame.securityManager, request), now: 11)
        #expect(Self.frames(&host).map(\.payload) == [[0x05, 0x09]])
        _ = host.handleACL(Self.acl(L2CAPFrame.securityManager, request), now: 12.5)
        #expect(Self.frames(&host).first?.payload.first == 0x02)

        var closed = Self.host(pairable: false)
        _ = Self.setUp(&closed)
        _ = Self.connect(&closed, peer: PairingAddress(0xC0FF_EE00_0002, random: false))
        _ = closed.handleACL(Self.acl(L2CAPFrame.securityManager, request), now: 1)
        #expect(Self.frames(&closed).map(\.payload) == [[0x05, 0x05]])
    }

    /// An event that does not decode (LE CS Config Complete with Action 7) is said once with its
    /// octets, not dropped in silence; the same event again is not said again; the host goes on.
    @Test func anUndecodableEventIsSaidOnceWithItsOctets() {
        var host = Self.host()
        _ = Self.setUp(&host)
        var body = LECSConfigComplete(connectionHandle: Self.handle, created: CSConfiguration()).encode()
        body[4] = 7
        let packet = HCIPacket(leSubevent: LECSConfigComplete.subeventCode, body: body)
        let first = host.handleEvent(packet, now: 1)
        let hex = packet.encode().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(first == [.deviation(.undecodableEvent(name: "LE CS Config Complete", why: "\(DecodeError.invalidValue(field: "Action", value: 7))", octets: hex))])
        #expect(host.handleEvent(packet, now: 2) == [])
        #expect(hex.hasPrefix("3e222f00400000070"))
    }
}
