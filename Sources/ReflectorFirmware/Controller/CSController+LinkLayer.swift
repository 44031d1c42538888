/// The CS link-layer procedures (Core 6.0 Vol 6 Part B §5.1.23–§5.1.29): security start,
/// capabilities exchange, FAE table, configuration, procedure start and terminate, channel map
/// update, and the version exchange. Each is started by a host command on one side and answered
/// by the peer controller here, with LL_REJECT_EXT_IND carrying the HCI error code when the
/// peer refuses.
extension CSController {
    /// Handles one LL control PDU from the peer (opcode and CtrData). Malformed PDUs are answered
    /// with LL_UNKNOWN_RSP (unknown opcode) or LL_REJECT_EXT_IND (bad parameters); nothing traps.
    public mutating func receiveFromPeer(_ bytes: some Collection<UInt8>) {
        let b = Array(bytes)
        guard let op = b.first else { return }
        if op == LLVersionInd.opcode {
            guard let v = try? LLVersionInd.decode(b) else { return reject(op, .invalidLMPOrLLParameters) }
            return receiveVersion(v)
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
        case .csSecRsp(let rsp): receiveSecurityResponse(rsp)
        case .csCapabilitiesReq(let req):
            remoteCapabilities = req.capabilities
            pdus.append(LLControlPDU.csCapabilitiesRsp(LLCSCapabilitiesRsp(capabilities: localCapabilities)).encode())
        case .csCapabilitiesRsp(let rsp):
            remoteCapabilities = rsp.capabilities
            sendRemoteCapabilities(status: .success, rsp.capabilities)
        case .csFAEReq:
            // The model's carrier is exact: every entry of its FAE table is zero.
            pdus.append(LLControlPDU.csFAERsp(LLCSFAERsp(table: FAETable())).encode())
        case .csFAERsp(let rsp):
            remoteFAETable = rsp.table
            sendLEMeta(code: LECSReadRemoteFAETableComplete.subeventCode,
                       body: LECSReadRemoteFAETableComplete(connectionHandle: connection.handle, table: rsp.table).encode())
        case .csConfigReq(let req): receiveConfigRequest(req)
        case .csConfigRsp(let rsp): receiveConfigResponse(rsp)
        case .csReq(let req): receiveProcedureRequest(req)
        case .csRsp(let rsp): receiveProcedureResponse(rsp)
        case .csInd(let ind): receiveProcedureIndication(ind)
        case .csTerminateReq(let req):
            pdus.append(LLControlPDU.csTerminateRsp(LLCSTerminateRsp(configID: req.configID, procedureCount: UInt16(truncatingIfNeeded: run?.completed ?? 0))).encode())
            stopProcedures(configID: req.configID)
        case .csTerminateRsp(let rsp):
            stopProcedures(configID: rsp.configID)
        case .csChannelMapInd(let ind):
            applyClassification(ind.channelMap)
        case .rejectExtInd(let r): peerRefused(r.rejectOpcode, r.errorCode)
        case .unknownRsp(let r): peerRefused(r.unknownType, .unsupportedRemoteFeature)
        }
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

    /// The peer refused a PDU this side sent: report it to the host as the command's failure.
    mutating func peerRefused(_ opcode: UInt8, _ status: HCIStatus) {
        switch LLControlOpcode(rawValue: opcode) {
        case .csSecReq?:
            pendingSecurity = nil
            sendLEMeta(code: LECSSecurityEnableComplete.subeventCode, body: LECSSecurityEnableComplete(status: status, connectionHandle: connection.handle).encode())
        case .csCapabilitiesReq?:
            sendRemoteCapabilities(status: status, localCapabilities)
        case .csFAEReq?:
            sendLEMeta(code: LECSReadRemoteFAETableComplete.subeventCode,
                       body: LECSReadRemoteFAETableComplete(status: status, connectionHandle: connection.handle, table: FAETable()).encode())
        case .csConfigReq?:
            let id = pendingConfiguration?.configID ?? 0
            pendingConfiguration = nil
            sendLEMeta(code: LECSConfigComplete.subeventCode,
                       body: LECSConfigComplete(status: status, connectionHandle: connection.handle, configID: id, action: .created, configuration: nil).encode())
        case .csReq?, .csRsp?:
            let id = pendingEnable ?? 0
            pendingEnable = nil
            pendingRequest = nil
            sendProcedureEnableComplete(status: status, configID: id, enabled: false)
        default:
            break
        }
    }

    // MARK: Version exchange

    /// Read Remote Version Information: send our LL_VERSION_IND; the peer answers with its own.
    mutating func requestVersion() {
        versionRequested = true
        sendVersionOnce()
        if let v = remoteVersion { reportVersion(v) }
    }

    mutating func receiveVersion(_ v: LLVersionInd) {
        remoteVersion = v
        sendVersionOnce()
        if versionRequested { reportVersion(v) }
    }

    /// Each side sends its LL_VERSION_IND once per connection (Vol 6 Part B §5.1.5).
    mutating func sendVersionOnce() {
        guard !versionSent else { return }
        versionSent = true
        pdus.append(LLVersionInd(version: hciVersion, companyIdentifier: Self.companyIdentifier, subversion: Self.subversion).encode())
    }

    mutating func reportVersion(_ v: LLVersionInd) {
        versionRequested = false
        guard masks.allows(event: ReadRemoteVersionInformationComplete.eventCode) else { return }
        send(ReadRemoteVersionInformationComplete(connectionHandle: connection.handle, version: v.version,
                                                  companyIdentifier: v.companyIdentifier, subversion: v.subversion).packet)
    }

    // MARK: Security start

    /// The central's half of CS security start: fresh CS_IV_C, CS_IN_C, CS_PV_C in LL_CS_SEC_REQ.
    mutating func startSecurity() {
        let halves = CSSecurityHalves(random: &random)
        pendingSecurity = halves
        pdus.append(LLCSSecReq(halves).encode())
    }

    mutating func receiveSecurityRequest(_ req: LLCSSecReq) {
        guard !connection.isCentral else { return reject(LLControlOpcode.csSecReq.rawValue, .llProcedureCollision) }
        guard run == nil else { return reject(LLControlOpcode.csSecReq.rawValue, .commandDisallowed) }
        let rsp = LLCSSecRsp(CSSecurityHalves(random: &random))
        pdus.append(rsp.encode())
        securityStarted(CSSecurityMaterial(request: req, response: rsp))
    }

    mutating func receiveSecurityResponse(_ rsp: LLCSSecRsp) {
        guard let h = pendingSecurity else { return }
        pendingSecurity = nil
        securityStarted(CSSecurityMaterial(central: h, peripheral: rsp.halves))
    }

    /// Both sides instantiate the same DRBG (h9); the procedure counter starts again.
    mutating func securityStarted(_ material: CSSecurityMaterial) {
        drbg = material.makeDRBG(cipher: Cipher.self)
        lastProcedureCounter = nil
        sendLEMeta(code: LECSSecurityEnableComplete.subeventCode, body: LECSSecurityEnableComplete(connectionHandle: connection.handle).encode())
    }

    mutating func sendRemoteCapabilities(status: HCIStatus, _ caps: CSCapabilities) {
        let e = LECSReadRemoteSupportedCapabilitiesComplete(status: status, connectionHandle: connection.handle, capabilities: caps, layout: capabilitiesLayout)
        sendLEMeta(code: e.eventCode, body: e.encode())
    }

    // MARK: Configuration

    mutating func createConfig(_ op: UInt16, _ c: LECSCreateConfig) {
        var config = c.configuration
        guard config.configID < 4 else { return commandStatus(op, .invalidHCICommandParameters) }
        guard pendingConfiguration == nil else { return commandStatus(op, .commandDisallowed) }
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
            pendingConfiguration = config
            pdus.append(LLControlPDU.csConfigReq(req).encode())
        } else {
            configurations[Int(config.configID)] = config
            sendLEMeta(code: LECSConfigComplete.subeventCode, body: LECSConfigComplete(connectionHandle: connection.handle, created: config).encode())
        }
    }

    mutating func removeConfig(_ id: UInt8, notifyPeer: Bool) {
        configurations[Int(id)] = nil
        procedureParameters[Int(id)] = nil
        if notifyPeer, let req = LLCSConfigReq.remove(configID: id) { pdus.append(LLControlPDU.csConfigReq(req).encode()) }
        sendLEMeta(code: LECSConfigComplete.subeventCode,
                   body: LECSConfigComplete(connectionHandle: connection.handle, configID: id, action: .removed, configuration: nil).encode())
    }

    mutating func receiveConfigRequest(_ req: LLCSConfigReq) {
        let op = LLControlOpcode.csConfigReq.rawValue
        guard let config = req.receiverConfiguration else {
            // Action = remove.
            guard req.configID < 4 else { return reject(op, .invalidLMPOrLLParameters) }
            pdus.append(LLControlPDU.csConfigRsp(LLCSConfigRsp(configID: req.configID)).encode())
            return removeConfig(req.configID, notifyPeer: false)
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
        configurations[Int(config.configID)] = config
        pdus.append(LLControlPDU.csConfigRsp(LLCSConfigRsp(configID: config.configID)).encode())
        sendLEMeta(code: LECSConfigComplete.subeventCode, body: LECSConfigComplete(connectionHandle: connection.handle, created: config).encode())
    }

    mutating func receiveConfigResponse(_ rsp: LLCSConfigRsp) {
        guard let config = pendingConfiguration, config.configID == rsp.configID else { return }
        pendingConfiguration = nil
        configurations[Int(config.configID)] = config
        sendLEMeta(code: LECSConfigComplete.subeventCode, body: LECSConfigComplete(connectionHandle: connection.handle, created: config).encode())
    }

    mutating func setProcedureParameters(_ op: UInt16, _ c: LECSSetProcedureParameters) {
        guard c.configID < 4, let config = configurations[Int(c.configID)] else { return complete(op, status: .invalidHCICommandParameters, handle: c.connectionHandle) }
        guard run?.configID != c.configID else { return complete(op, status: .commandDisallowed, handle: c.connectionHandle) }
        guard let remote = remoteCapabilities else { return complete(op, status: .commandDisallowed, handle: c.connectionHandle) }
        switch CSConfigurationValidator.checkProcedureParameters(c.parameters, configuration: config, timing: config.timing, local: localCapabilities, remote: remote) {
        case .failure(let rejection):
            complete(op, status: rejection.status, handle: c.connectionHandle)
        case .success(let timing):
            configurations[Int(c.configID)]!.timing = timing
            procedureParameters[Int(c.configID)] = c.parameters
            complete(op, status: .success, handle: c.connectionHandle)
        }
    }
}
