import WireFormat

/// HCI command handling: parse the packet, check it as a controller must, answer with Command
/// Complete or Command Status, and start the LL procedure a command needs.
extension CSController {
    /// Handles one HCI command packet (opcode, length, parameters; no H4 indicator). Malformed
    /// packets and parameters are answered with an error status; nothing traps.
    public mutating func handleCommand(_ bytes: some Collection<UInt8>) {
        let packet: HCIPacket
        do {
            packet = try HCIPacket(command: bytes)
        } catch {
            // A packet whose length octet disagrees with its size: answer for its opcode if there is one.
            if let opcode = HCIPacket(indicator: .command, bytes: Array(bytes)).opcode { commandStatus(opcode, .invalidHCICommandParameters) }
            return
        }
        guard let op = packet.opcode else { return }  // a decoded command packet has one
        let p = packet.parameters
        switch op {
        case HCIOpcode.reset:
            resetState()
            complete(op, status: .success)
        case HCIOpcode.setEventMask:
            guard p.count == 8 else { return complete(op, status: .invalidHCICommandParameters) }
            masks.events = EventMasks.mask(p)
            complete(op, status: .success)
        case HCIOpcode.leSetEventMask:
            guard p.count == 8 else { return complete(op, status: .invalidHCICommandParameters) }
            masks.leEvents = EventMasks.mask(p)
            complete(op, status: .success)
        case HCIOpcode.readLocalVersionInformation:
            var w = ByteWriter(capacity: 9)
            w.u8(HCIStatus.success.rawValue)
            w.u8(hciVersion)
            w.u16(Self.subversion)  // HCI_Subversion
            w.u8(hciVersion)  // LMP/LL version
            w.u16(Self.companyIdentifier)
            w.u16(Self.subversion)  // LMP_Subversion
            complete(op, w.bytes)
        case HCIOpcode.readLocalSupportedCommands:
            complete(op, [HCIStatus.success.rawValue] + SupportedCommands.bitmap(of: Self.answeredOpcodes))
        case HCIOpcode.readLocalSupportedFeatures:
            // LMP features: LE supported (controller) bit 38, BR/EDR not supported bit 37.
            complete(op, [HCIStatus.success.rawValue] + Self.octets(UInt64(1) << 38 | UInt64(1) << 37))
        case HCIOpcode.readBDAddr:
            complete(op, [HCIStatus.success.rawValue] + Array(Self.octets(address).prefix(6)))
        case HCIOpcode.leReadLocalSupportedFeatures:
            complete(op, [HCIStatus.success.rawValue] + Self.octets(leFeatures))
        case HCIOpcode.leReadBufferSize:
            complete(op, [HCIStatus.success.rawValue, 251, 0, 4])
        case HCIOpcode.leReadBufferSizeV2:
            complete(op, [HCIStatus.success.rawValue, 251, 0, 4, 0, 0, 0])
        case HCIOpcode.leSetHostFeature:
            guard p.count == 2, p[1] <= 1 else { return complete(op, status: .invalidHCICommandParameters) }
            guard p[0] == 47 else { return complete(op, status: .unsupportedFeatureOrParameterValue) }
            if p[1] == 1 { hostFeatures |= 1 << 47 } else { hostFeatures &= ~(1 << 47) }
            complete(op, status: .success)
        case ReadRemoteVersionInformation.opcode:
            guard let c = decode(ReadRemoteVersionInformation.self, p), checkHandle(c, c.connectionHandle) else { return }
            commandStatus(op, .success)
            requestVersion()
        case LECSReadLocalSupportedCapabilities.opcode:
            complete(op, LECSLocalCapabilitiesReturn(capabilities: localCapabilities, layout: .v1).encode())
        case LECSReadLocalSupportedCapabilitiesV2.opcode:
            complete(op, LECSLocalCapabilitiesReturn(capabilities: localCapabilities, layout: v2CapabilitiesLayout).encode())
        case LECSReadRemoteSupportedCapabilities.opcode:
            guard let c = decode(LECSReadRemoteSupportedCapabilities.self, p), checkHandle(c, c.connectionHandle) else { return }
            guard !llProcedures.capabilities.isBusy else { return commandStatus(op, .commandDisallowed) }
            commandStatus(op, .success)
            requestCapabilities()
        case LECSWriteCachedRemoteSupportedCapabilities.opcode:
            writeCached(LECSWriteCachedRemoteSupportedCapabilities.self, p) { $0.remoteCapabilities = $1.capabilities }
        case LECSWriteCachedRemoteSupportedCapabilitiesV2.opcode:
            writeCached(LECSWriteCachedRemoteSupportedCapabilitiesV2.self, p) { $0.remoteCapabilities = $1.capabilities }
        case LECSSecurityEnable.opcode:
            guard let c = decode(LECSSecurityEnable.self, p), checkHandle(c, c.connectionHandle) else { return }
            // Only the central starts CS security (Vol 6 Part B §5.1.23).
            guard connection.isCentral, !llProcedures.security.isBusy else { return commandStatus(op, .commandDisallowed) }
            commandStatus(op, .success)
            startSecurity()
        case LECSSetDefaultSettings.opcode:
            guard let c = decode(LECSSetDefaultSettings.self, p), checkHandle(c, c.connectionHandle) else { return }
            if (c.initiatorEnabled && !localCapabilities.supports(.initiator)) || (c.reflectorEnabled && !localCapabilities.supports(.reflector)) {
                return complete(op, status: .unsupportedFeatureOrParameterValue, handle: c.connectionHandle)
            }
            if c.csSyncAntennaSelection != 0xFE && c.csSyncAntennaSelection != 0xFF && c.csSyncAntennaSelection > localCapabilities.numAntennas {
                return complete(op, status: .unsupportedFeatureOrParameterValue, handle: c.connectionHandle)
            }
            defaultSettings.initiatorEnabled = c.initiatorEnabled
            defaultSettings.reflectorEnabled = c.reflectorEnabled
            defaultSettings.syncAntennaSelection = c.csSyncAntennaSelection
            defaultSettings.maxTxPower = c.maxTxPower
            complete(op, status: .success, handle: c.connectionHandle)
        case LECSReadRemoteFAETable.opcode:
            guard let c = decode(LECSReadRemoteFAETable.self, p), checkHandle(c, c.connectionHandle) else { return }
            if let remote = remoteCapabilities, remote.subfeatures.contains(.noTransmitterFAE) {
                return commandStatus(op, .unsupportedRemoteFeature)
            }
            guard !llProcedures.faeTable.isBusy else { return commandStatus(op, .commandDisallowed) }
            commandStatus(op, .success)
            requestFAETable()
        case LECSWriteCachedRemoteFAETable.opcode:
            writeCached(LECSWriteCachedRemoteFAETable.self, p) { $0.remoteFAETable = $1.table }
        case LECSCreateConfig.opcode:
            guard let c = decode(LECSCreateConfig.self, p), checkHandle(c, c.connectionHandle) else { return }
            createConfig(op, c)
        case LECSRemoveConfig.opcode:
            guard let c = decode(LECSRemoveConfig.self, p), checkHandle(c, c.connectionHandle) else { return }
            guard c.configID < 4, configurations[Int(c.configID)] != nil else { return commandStatus(op, .invalidHCICommandParameters) }
            guard run?.configID != c.configID, configurationMayStart else { return commandStatus(op, .commandDisallowed) }
            commandStatus(op, .success)
            requestRemoval(c.configID)
        case LECSSetChannelClassification.opcode:
            guard let c = decode(LECSSetChannelClassification.self, p) else { return }
            // At least 15 channels must stay usable (Vol 4 Part E §7.8.139).
            guard !c.classification.usesDisallowedChannels, FilteredChannels(map: .allowed, classification: c.classification).isSufficient else {
                return complete(op, status: .invalidHCICommandParameters)
            }
            complete(op, status: .success)
            applyClassification(c.classification)
            // The central tells the peer (CS channel map update, Vol 6 Part B §5.1.29), if there is one.
            if connection.isCentral && isConnected {
                pdus.append(LLControlPDU.csChannelMapInd(LLCSChannelMapInd(channelMap: c.classification, instant: connection.eventCounter &+ 6)).encode())
            }
        case LECSSetProcedureParameters.opcode:
            guard let c = decode(LECSSetProcedureParameters.self, p), checkHandle(c, c.connectionHandle) else { return }
            setProcedureParameters(op, c)
        case LECSProcedureEnable.opcode:
            guard let c = decode(LECSProcedureEnable.self, p), checkHandle(c, c.connectionHandle) else { return }
            enableProcedures(op, c)
        default:
            commandStatus(op, .unknownCommand)
        }
    }

    /// Every opcode `handleCommand(_:)` answers other than with Unknown HCI Command: what Read
    /// Local Supported Commands reports, and what a controller layered on this one (the virtual
    /// board) adds its own commands to. BoardCommandSetTests sweeps all 65,536 opcodes against it.
    public static var answeredOpcodes: [UInt16] {
        [
            HCIOpcode.reset, HCIOpcode.setEventMask, HCIOpcode.leSetEventMask, HCIOpcode.readLocalVersionInformation,
            HCIOpcode.readLocalSupportedCommands, HCIOpcode.readLocalSupportedFeatures, HCIOpcode.readBDAddr,
            HCIOpcode.leReadLocalSupportedFeatures, HCIOpcode.leReadBufferSize, HCIOpcode.leReadBufferSizeV2, HCIOpcode.leSetHostFeature,
            ReadRemoteVersionInformation.opcode, LECSReadLocalSupportedCapabilities.opcode, LECSReadLocalSupportedCapabilitiesV2.opcode,
            LECSReadRemoteSupportedCapabilities.opcode, LECSWriteCachedRemoteSupportedCapabilities.opcode,
            LECSWriteCachedRemoteSupportedCapabilitiesV2.opcode, LECSSecurityEnable.opcode, LECSSetDefaultSettings.opcode,
            LECSReadRemoteFAETable.opcode, LECSWriteCachedRemoteFAETable.opcode, LECSCreateConfig.opcode, LECSRemoveConfig.opcode,
            LECSSetChannelClassification.opcode, LECSSetProcedureParameters.opcode, LECSProcedureEnable.opcode,
        ]
    }

    /// Answers command `C` with `status` in the form the controller answers it (`C.answer`):
    /// Command Status, or Command Complete with the connection handle when there is one.
    mutating func refuse<C: HCICommand>(_ type: C.Type, _ status: HCIStatus, handle: UInt16? = nil) {
        switch C.answer {
        case .status: commandStatus(C.opcode, status)
        case .complete: complete(C.opcode, status: status, handle: handle)
        }
    }

    /// A Write Cached command (the host hands over what it learnt from the peer before):
    /// `store` keeps it, then Command Complete with the handle.
    mutating func writeCached<C: HCIConnectionCommand>(_ type: C.Type, _ p: [UInt8], _ store: (inout Self, C) -> Void) {
        guard let c = decode(C.self, p), checkHandle(c, c.connectionHandle) else { return }
        store(&self, c)
        complete(C.opcode, status: .success, handle: c.connectionHandle)
    }

    /// Decodes a command's parameters or answers the malformed command and returns nil.
    mutating func decode<C: HCICommand>(_ type: C.Type, _ p: [UInt8]) -> C? {
        do {
            return try C.decode(p)
        } catch {
            refuse(C.self, .invalidHCICommandParameters)
            return nil
        }
    }

    /// Answers Unknown Connection Identifier for a handle other than the connection's.
    mutating func checkHandle<C: HCICommand>(_ command: C, _ handle: UInt16) -> Bool {
        guard isConnected, handle == connection.handle else {
            refuse(C.self, .unknownConnectionIdentifier, handle: handle)
            return false
        }
        return true
    }

    /// LE features: Channel Sounding (46), CS Host Support as the host set it (47), CS Tone
    /// Quality Indication (48); plus the 2M PHY (8) the CS_SYNC PHYs rely on.
    public var leFeatures: UInt64 {
        var f: UInt64 = 1 << 46 | 1 << 48 | 1 << 8
        f |= hostFeatures & (1 << 47)
        return f
    }

    /// Returns the controller to its state after HCI Reset (CS state, masks, host features).
    public mutating func resetState() {
        masks = EventMasks()
        hostFeatures = 0
        remoteCapabilities = nil
        remoteFAETable = nil
        drbg = nil
        defaultSettings = DefaultSettings()
        configurations = [CSConfiguration?](repeating: nil, count: 4)
        procedureParameters = [ProcedureParameters?](repeating: nil, count: 4)
        channelClassification = .allowed
        llProcedures.abandon()
        lastProcedureCounter = nil
        run = nil
        planner = nil
        events.removeAll()
        pdus.removeAll()
    }

    static func octets(_ v: UInt64) -> [UInt8] {
        var w = ByteWriter(capacity: 8)
        w.uint(v, 8)
        return w.bytes
    }
}
