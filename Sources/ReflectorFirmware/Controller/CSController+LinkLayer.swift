/// The CS link-layer procedures as the controller runs them (Core 6.0 Vol 6 Part B §5.1.5,
/// §5.1.23–§5.1.29): host commands start them (`CSController+Commands`), and this hands what the
/// peer sends to the procedure it belongs to (`LinkLayer/`, one type each with its state and
/// T_PRT wait). Procedures the peer starts meet the collision rules of §5.3 first; what this
/// side cannot accept is refused with LL_REJECT_EXT_IND carrying the HCI error code, and a
/// refusal of ours is reported to the host as the failure of the command that started it.
extension CSController {
    /// Handles one LL control PDU from the peer (opcode and CtrData). Malformed PDUs are answered
    /// with LL_UNKNOWN_RSP (unknown opcode) or LL_REJECT_EXT_IND (bad parameters); nothing traps.
    /// Without a connection nothing arrives.
    public mutating func receiveFromPeer(_ bytes: some Collection<UInt8>) {
        guard isConnected else { return }
        let b = Array(bytes)
        guard let op = b.first else { return }
        if op == LLVersionInd.opcode {
            guard let v = try? LLVersionInd.decode(b) else { return reject(op, .invalidLMPOrLLParameters) }
            return apply(llProcedures.version.receive(v))
        }
        let pdu: LLControlPDU
        do {
            pdu = try LLControlPDU.decode(b)
        } catch {
            if LLControlOpcode(rawValue: op) == nil {
                pdus.append(LLControlPDU.unknownRsp(LLUnknownRsp(unknownType: op)).encode())
            } else {
                reject(op, .invalidLMPOrLLParameters)
            }
            return
        }
        switch pdu {
        case .csSecReq(let req): receiveSecurityRequest(req)
        case .csSecRsp(let rsp):
            guard let material = llProcedures.security.complete(rsp) else { return }
            securityStarted(material)
        case .csCapabilitiesReq(let req):
            remoteCapabilities = req.capabilities
            pdus.append(LLControlPDU.csCapabilitiesRsp(LLCSCapabilitiesRsp(capabilities: localCapabilities)).encode())
        case .csCapabilitiesRsp(let rsp):
            guard llProcedures.capabilities.end() else { return }
            remoteCapabilities = rsp.capabilities
            sendRemoteCapabilities(status: .success, rsp.capabilities)
        case .csFAEReq:
            // The model's carrier is exact: every entry of its FAE table is zero.
            pdus.append(LLControlPDU.csFAERsp(LLCSFAERsp(table: FAETable())).encode())
        case .csFAERsp(let rsp):
            guard llProcedures.faeTable.end() else { return }
            remoteFAETable = rsp.table
            sendLEMeta(code: LECSReadRemoteFAETableComplete.subeventCode,
                       body: LECSReadRemoteFAETableComplete(connectionHandle: connection.handle, table: rsp.table).encode())
        case .csConfigReq(let req):
            guard admitPeerProcedure(.configuration, .csConfigReq) else { return }
            receiveConfigRequest(req)
        case .csConfigRsp(let rsp): receiveConfigResponse(rsp)
        case .csReq(let req):
            guard admitPeerProcedure(.start, .csReq) else { return }
            receiveProcedureRequest(req)
        case .csRsp(let rsp): receiveProcedureResponse(rsp)
        case .csInd(let ind): receiveProcedureIndication(ind)
        case .csTerminateReq(let req):
            guard admitPeerProcedure(.terminate, .csTerminateReq) else { return }
            receiveTerminateRequest(req)
        case .csTerminateRsp(let rsp):
            guard llProcedures.terminate.responded(configID: rsp.configID) else { return }
            stopProcedures(configID: rsp.configID)
        case .csChannelMapInd(let ind):
            applyClassification(ind.channelMap)
        case .rejectExtInd(let r): peerRefused(r.rejectOpcode, r.errorCode)
        case .unknownRsp(let r): peerRefused(r.unknownType, .unsupportedRemoteFeature)
        }
    }

    /// The collision rules (Vol 6 Part B §5.3) for a procedure the peer starts with `opcode`:
    /// while an incompatible procedure of this side's waits for the peer, the central refuses
    /// the peer's (LL Procedure Collision, or Different Transaction Collision) and continues its
    /// own, and the peripheral gives way and runs the central's. Returns whether to run it.
    mutating func admitPeerProcedure(_ kind: CSProcedureKind, _ opcode: LLControlOpcode) -> Bool {
        guard let code = llProcedures.collision(with: kind) else { return true }
        if connection.isCentral {
            reject(opcode.rawValue, code)
            return false
        }
        llProcedures.yield(to: kind)
        return true
    }

    /// Both sides use the same classification from the next procedure on (the loopback and a
    /// real link both deliver the indication well before its instant).
    mutating func applyClassification(_ map: ChannelMap) {
        channelClassification = map
        planner?.setClassification(map)
    }

    mutating func reject(_ opcode: UInt8, _ status: HCIStatus) {
        pdus.append(LLControlPDU.rejectExtInd(LLRejectExtInd(rejectOpcode: opcode, errorCode: status)).encode())
    }

    /// The peer refused a PDU this side sent: the procedure it belonged to ends, and the host
    /// hears it as the failure of the command that started it. A refusal nothing waits for is
    /// ignored.
    mutating func peerRefused(_ opcode: UInt8, _ status: HCIStatus) {
        switch LLControlOpcode(rawValue: opcode) {
        case .csSecReq?:
            guard llProcedures.security.end() else { return }
            sendLEMeta(code: LECSSecurityEnableComplete.subeventCode, body: LECSSecurityEnableComplete(status: status, connectionHandle: connection.handle).encode())
        case .csCapabilitiesReq?:
            guard llProcedures.capabilities.end() else { return }
            sendRemoteCapabilities(status: status, localCapabilities)
        case .csFAEReq?:
            guard llProcedures.faeTable.end() else { return }
            sendLEMeta(code: LECSReadRemoteFAETableComplete.subeventCode,
                       body: LECSReadRemoteFAETableComplete(status: status, connectionHandle: connection.handle, table: FAETable()).encode())
        case .csConfigReq?:
            guard let request = llProcedures.configuration.end() else { return }
            let action: LECSConfigComplete.Action
            if case .remove = request { action = .removed } else { action = .created }
            sendLEMeta(code: LECSConfigComplete.subeventCode,
                       body: LECSConfigComplete(status: status, connectionHandle: connection.handle, configID: request.configID, action: action, configuration: nil).encode())
        case .csReq?:
            guard let id = llProcedures.start.requestRefused() else { return }
            sendProcedureEnableComplete(status: status, configID: id, enabled: false)
        case .csRsp?:
            guard let id = llProcedures.start.responseRefused() else { return }
            sendProcedureEnableComplete(status: status, configID: id, enabled: false)
        case .csTerminateReq?:
            guard let id = llProcedures.terminate.refused() else { return }
            sendProcedureEnableComplete(status: status, configID: id, enabled: false)
        default:
            break
        }
    }

    // MARK: Version exchange

    /// Read Remote Version Information: the version exchange, or the peer's version if known.
    mutating func requestVersion() {
        apply(llProcedures.version.hostRequest(at: now))
    }

    mutating func apply(_ outcome: VersionExchange.Outcome) {
        if outcome.sendOwn {
            pdus.append(LLVersionInd(version: hciVersion, companyIdentifier: Self.companyIdentifier, subversion: Self.subversion).encode())
        }
        if let v = outcome.report { reportVersion(v) }
    }

    mutating func reportVersion(_ v: LLVersionInd) {
        guard masks.allows(event: ReadRemoteVersionInformationComplete.eventCode) else { return }
        send(ReadRemoteVersionInformationComplete(connectionHandle: connection.handle, version: v.version,
                                                  companyIdentifier: v.companyIdentifier, subversion: v.subversion).packet)
    }

    // MARK: Security start, capabilities, FAE table

    /// The central's half of CS security start: fresh CS_IV_C, CS_IN_C, CS_PV_C in LL_CS_SEC_REQ.
    mutating func startSecurity() {
        let req = llProcedures.security.start(CSSecurityHalves(random: &random), at: now)
        pdus.append(req.encode())
    }

    mutating func receiveSecurityRequest(_ req: LLCSSecReq) {
        guard !connection.isCentral else { return reject(LLControlOpcode.csSecReq.rawValue, .llProcedureCollision) }
        guard run == nil else { return reject(LLControlOpcode.csSecReq.rawValue, .commandDisallowed) }
        let rsp = LLCSSecRsp(CSSecurityHalves(random: &random))
        pdus.append(rsp.encode())
        securityStarted(CSSecurityMaterial(request: req, response: rsp))
    }

    /// Both sides instantiate the same DRBG (h9); the procedure counter starts again.
    mutating func securityStarted(_ material: CSSecurityMaterial) {
        drbg = material.makeDRBG(cipher: Cipher.self)
        lastProcedureCounter = nil
        sendLEMeta(code: LECSSecurityEnableComplete.subeventCode, body: LECSSecurityEnableComplete(connectionHandle: connection.handle).encode())
    }

    /// LE CS Read Remote Supported Capabilities: LL_CS_CAPABILITIES_REQ with ours.
    mutating func requestCapabilities() {
        llProcedures.capabilities.start(at: now)
        pdus.append(LLControlPDU.csCapabilitiesReq(LLCSCapabilitiesReq(capabilities: localCapabilities)).encode())
    }

    mutating func sendRemoteCapabilities(status: HCIStatus, _ caps: CSCapabilities) {
        let e = LECSReadRemoteSupportedCapabilitiesComplete(status: status, connectionHandle: connection.handle, capabilities: caps, layout: capabilitiesLayout)
        sendLEMeta(code: e.eventCode, body: e.encode())
    }

    /// LE CS Read Remote FAE Table: LL_CS_FAE_REQ.
    mutating func requestFAETable() {
        llProcedures.faeTable.start(at: now)
        pdus.append(LLControlPDU.csFAEReq(LLCSFAEReq()).encode())
    }

    // MARK: Configuration

    /// Whether the host may start a configuration procedure: none of ours waits, and no CS
    /// start procedure is under way (the two collide, §5.3).
    var configurationMayStart: Bool { !llProcedures.configuration.isBusy && !llProcedures.start.isInProgress }

    mutating func createConfig(_ op: UInt16, _ c: LECSCreateConfig) {
        var config = c.configuration
        guard config.configID < 4 else { return commandStatus(op, .invalidHCICommandParameters) }
        guard configurationMayStart else { return commandStatus(op, .commandDisallowed) }
        guard run?.configID != config.configID else { return commandStatus(op, .commandDisallowed) }
        // With the remote context the peer's capabilities must be known (LE CS Read Remote
        // Supported Capabilities, or written from a cache).
        let remote: CSCapabilities
        if c.createContext == .localAndRemote {
            guard let r = remoteCapabilities else { return commandStatus(op, .commandDisallowed) }
            remote = r
        } else {
            remote = remoteCapabilities ?? localCapabilities
        }
        switch CSConfigurationValidator.checkCreateConfig(config, local: localCapabilities, remote: remote) {
        case .failure(let rejection): return commandStatus(op, rejection.status)
        case .success(let timing): config.timing = timing
        }
        commandStatus(op, .success)
        if c.createContext == .localAndRemote {
            guard let req = LLCSConfigReq.create(config) else { return }
            llProcedures.configuration.start(.create(config), at: now)
            pdus.append(LLControlPDU.csConfigReq(req).encode())
        } else {
            reportCreated(config)
        }
    }

    /// LE CS Remove Config: LL_CS_CONFIG_REQ with Action = remove; the configuration goes, and
    /// the host hears of it, when the peer's LL_CS_CONFIG_RSP arrives.
    mutating func requestRemoval(_ id: UInt8) {
        guard let req = LLCSConfigReq.remove(configID: id) else { return }
        llProcedures.configuration.start(.remove(configID: id), at: now)
        pdus.append(LLControlPDU.csConfigReq(req).encode())
    }

    /// Drops configuration `id` (and its procedure parameters) and tells the host.
    mutating func removeConfig(_ id: UInt8) {
        configurations[Int(id)] = nil
        procedureParameters[Int(id)] = nil
        sendLEMeta(code: LECSConfigComplete.subeventCode,
                   body: LECSConfigComplete(connectionHandle: connection.handle, configID: id, action: .removed, configuration: nil).encode())
    }

    mutating func reportCreated(_ config: CSConfiguration) {
        configurations[Int(config.configID)] = config
        sendLEMeta(code: LECSConfigComplete.subeventCode, body: LECSConfigComplete(connectionHandle: connection.handle, created: config).encode())
    }

    mutating func receiveConfigRequest(_ req: LLCSConfigReq) {
        let op = LLControlOpcode.csConfigReq.rawValue
        guard let config = req.receiverConfiguration else {
            // Action = remove.
            guard req.configID < 4 else { return reject(op, .invalidLMPOrLLParameters) }
            guard run?.configID != req.configID else { return reject(op, .commandDisallowed) }
            pdus.append(LLControlPDU.csConfigRsp(LLCSConfigRsp(configID: req.configID)).encode())
            return removeConfig(req.configID)
        }
        guard run?.configID != config.configID else { return reject(op, .commandDisallowed) }
        let remote = remoteCapabilities ?? localCapabilities
        switch CSConfigurationValidator.checkReceivedConfig(config, local: localCapabilities, remote: remote) {
        case .failure(let rejection):
            // A parameter the peer may not send is an LL parameter error; an unsupported one is the status itself.
            let status: HCIStatus = rejection.status == .invalidHCICommandParameters ? .invalidLMPOrLLParameters : rejection.status == .unsupportedFeatureOrParameterValue ? .unsupportedLMPOrLLParameterValue : rejection.status
            return reject(op, status)
        case .success:
            break
        }
        pdus.append(LLControlPDU.csConfigRsp(LLCSConfigRsp(configID: config.configID)).encode())
        reportCreated(config)
    }

    /// The peer applied our request: now this side does, and tells its host.
    mutating func receiveConfigResponse(_ rsp: LLCSConfigRsp) {
        switch llProcedures.configuration.complete(configID: rsp.configID) {
        case .create(let config)?: reportCreated(config)
        case .remove(let id)?: removeConfig(id)
        case nil: break
        }
    }

    mutating func setProcedureParameters(_ op: UInt16, _ c: LECSSetProcedureParameters) {
        guard c.configID < 4, let config = configurations[Int(c.configID)] else { return complete(op, status: .invalidHCICommandParameters, handle: c.connectionHandle) }
        guard run?.configID != c.configID else { return complete(op, status: .commandDisallowed, handle: c.connectionHandle) }
        guard let remote = remoteCapabilities else { return complete(op, status: .commandDisallowed, handle: c.connectionHandle) }
        switch CSConfigurationValidator.checkProcedureParameters(c.parameters, configuration: config, timing: config.timing, local: localCapabilities, remote: remote) {
        case .failure(let rejection):
            complete(op, status: rejection.status, handle: c.connectionHandle)
        case .success(let timing):
            configurations[Int(c.configID)]?.timing = timing
            procedureParameters[Int(c.configID)] = c.parameters
            complete(op, status: .success, handle: c.connectionHandle)
        }
    }
}
