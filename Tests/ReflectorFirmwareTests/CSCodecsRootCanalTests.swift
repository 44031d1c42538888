@testable import ReflectorFirmware
import TestSupport
import Testing

/// Our HCI Channel Sounding codecs against RootCanal's (`rootcanal.packets.hci` 1.13.0,
/// generated from its `hci_packets.pdl`; `Tests/Peers/rootcanal_oracle.py`), in one Python
/// process for the suite: for every CS command we send, every answer (Command Complete with its
/// return parameters, or Command Status) and every LE Meta CS event, RootCanal parses our
/// octets as the right class, serializes them back unchanged, reads the fields we meant, and
/// builds the same octets from its own constructors, which our decoders read back to the value
/// we encoded. The firmware encodes the events and the hosts decode them with the same codecs.
///
/// Where RootCanal disagrees, the disagreement is pinned in `knownDisagreements` and written
/// down with who is right in docs/rootcanal.md ("Codec differences").
@Suite struct CSCodecsRootCanalTests: CSOracleSuite {
    static let oracleName = "RootCanal"
    typealias Case = CSOracleCase
    typealias V = CSOracleVectors

    static let h = V.handle
    static let ok = "status=hci.ErrorCode.SUCCESS"
    static let caps = V.capabilitiesKeywords(numAntennas: "num_antennae_supported")

    /// RootCanal's steps (`LeCsResultDataStructure`) from the vectors' hand-written octets.
    static func steps(_ steps: [V.Step]) -> String {
        "[" + steps.map { "hci.LeCsResultDataStructure(step_mode=\($0.mode), step_channel=\($0.channel), step_data=list(B('\($0.dataHex)')))" }.joined(separator: ", ") + "]"
    }
    /// What RootCanal reads of the steps: (mode, channel, data hex) each.
    static let stepFields = "[(s.step_mode, s.step_channel, bytes(s.step_data).hex()) for s in c.cs_step]"

    // MARK: Commands

    static var commands: [Case] {
        [
            .command(LECSReadLocalSupportedCapabilities(), python: "hci.LeCsReadLocalSupportedCapabilities()", type: "LeCsReadLocalSupportedCapabilities"),
            .command(LECSReadRemoteSupportedCapabilities(connectionHandle: h), python: "hci.LeCsReadRemoteSupportedCapabilities(connection_handle=0x40)",
                     type: "LeCsReadRemoteSupportedCapabilities"),
            .command(LECSWriteCachedRemoteSupportedCapabilities(connectionHandle: h, capabilities: V.capabilities.v1Only),
                     python: "hci.LeCsWriteCachedRemoteSupportedCapabilities(connection_handle=0x40, \(caps))", type: "LeCsWriteCachedRemoteSupportedCapabilities",
                     fields: "(c.connection_handle, c.num_config_supported, c.max_consecutive_procedures_supported, c.num_antennae_supported, c.roles_supported, c.subfeatures_supported, c.t_fcs_times_supported, c.t_sw_time_supported, c.tx_snr_capability)",
                     expected: "(64, 4, 258, 2, 3, 6, 384, 2, 17)"),
            .command(LECSSecurityEnable(connectionHandle: h), python: "hci.LeCsSecurityEnable(connection_handle=0x40)", type: "LeCsSecurityEnable"),
            .command(LECSSetDefaultSettings(connectionHandle: h, initiatorEnabled: true, reflectorEnabled: true, csSyncAntennaSelection: 0xFE, maxTxPower: 20),
                     python: "", type: "LeCsSetDefaultSettings",
                     fields: "(c.connection_handle, c.role_enable, int(c.cs_sync_antenna_selection), c.max_tx_power)", expected: "(64, 3, 254, 20)"),
            .command(LECSReadRemoteFAETable(connectionHandle: h), python: "hci.LeCsReadRemoteFaeTable(connection_handle=0x40)", type: "LeCsReadRemoteFaeTable"),
            .command(LECSWriteCachedRemoteFAETable(connectionHandle: h, table: V.faeTable),
                     python: "hci.LeCsWriteCachedRemoteFaeTable(connection_handle=0x40, remote_fae_table=[(i - 36) & 0xFF for i in range(72)])",
                     type: "LeCsWriteCachedRemoteFaeTable", fields: "(c.connection_handle, len(c.remote_fae_table))", expected: "(64, 72)"),
            .command(LECSCreateConfig(connectionHandle: h, configuration: CSConfiguration(configID: 1, mainMode: .mode2, subMode: nil, role: .initiator)),
                     python: "", type: "LeCsCreateConfig",
                     fields: "(c.connection_handle, c.config_id, int(c.create_context), int(c.main_mode_type), int(c.sub_mode_type), c.min_main_mode_steps, c.max_main_mode_steps, int(c.role), c.channel_map_repetition)",
                     expected: "(64, 1, 1, 2, 255, 2, 5, 0, 1)"),
            .command(LECSRemoveConfig(connectionHandle: h, configID: 1), python: "hci.LeCsRemoveConfig(connection_handle=0x40, config_id=1)", type: "LeCsRemoveConfig"),
            .command(LECSSetChannelClassification(classification: .allowed),
                     python: "hci.LeCsSetChannelClassification(channel_classification=list(B('\(V.allowedMap)')))", type: "LeCsSetChannelClassification",
                     fields: "bytes(c.channel_classification).hex()", expected: "'\(V.allowedMap)'"),
            .command(LECSSetProcedureParameters(connectionHandle: h, configID: 1, parameters: ProcedureParameters(
                maxProcedureLength: 0x0640, minProcedureInterval: 2, maxProcedureInterval: 3, maxProcedureCount: 0, minSubeventLength: 1250, maxSubeventLength: 40_000,
                antennaConfiguration: AntennaConfiguration(index: 0)!, phy: 1, txPowerDelta: nil, preferredPeerAntenna: 0x01)),
                     python: "", type: "LeCsSetProcedureParameters",
                     fields: "(c.max_procedure_len, c.min_procedure_interval, c.max_procedure_interval, c.max_procedure_count, c.min_subevent_len, c.max_subevent_len, c.tone_antenna_config_selection, int(c.phy), c.tx_power_delta, int(c.preferred_peer_antenna), int(c.snr_control_initiator), int(c.snr_control_reflector))",
                     expected: "(1600, 2, 3, 0, 1250, 40000, 0, 1, 128, 1, 255, 255)"),
            .command(LECSProcedureEnable(connectionHandle: h, configID: 1, enable: true),
                     python: "hci.LeCsProcedureEnable(connection_handle=0x40, config_id=1, procedure_enable=hci.Enable.ENABLED)", type: "LeCsProcedureEnable"),
            .command(LECSTestEnd(), python: "hci.LeCsTestEnd()", type: "LeCsTestEnd"),
        ]
    }

    // MARK: Command Complete and Command Status

    /// Each CS command's answer as our declarations (`HCICommand.answer`, `ReturnParameters`)
    /// and our controller give it, against RootCanal's `…Complete` (Command Complete) and
    /// `…Status` (Command Status) classes: §7.8.130–§7.8.143, "Return parameters" and "Events
    /// generated".
    static var answers: [Case] {
        func cc(_ name: String, _ extra: String = "") -> String { "hci.\(name)(num_hci_command_packets=1, \(ok)\(extra))" }
        func cs(_ name: String) -> String { "hci.\(name)(num_hci_command_packets=1, \(ok))" }
        let withHandle = ", connection_handle=0x40"
        let handleField = "(int(c.status), c.connection_handle)"
        return [
            Case(name: "Command Complete of LE CS Read Local Supported Capabilities",
                 ours: CommandCompleteEvent(opcode: LECSReadLocalSupportedCapabilities.opcode,
                                            returnParameters: LECSLocalCapabilitiesReturn(capabilities: V.capabilities, layout: .v1).encode()).packet,
                 python: cc("LeCsReadLocalSupportedCapabilitiesComplete", ", " + caps), type: "LeCsReadLocalSupportedCapabilitiesComplete",
                 fields: "(int(c.status), c.num_config_supported, c.max_consecutive_procedures_supported, c.rtt_capability, c.t_ip2_times_supported, c.tx_snr_capability)",
                 expected: "(0, 4, 258, 5, 65, 17)",
                 decodes: { p in
                     guard let e = try? CommandCompleteEvent.decode(packet: p), e.opcode == LECSReadLocalSupportedCapabilities.opcode else { return false }
                     return (try? LECSLocalCapabilitiesReturn.decode(e.returnParameters, v2: false))?.capabilities == V.capabilities.v1Only
                 }),
            .status(LECSReadRemoteSupportedCapabilities.self, python: cs("LeCsReadRemoteSupportedCapabilitiesStatus"), type: "LeCsReadRemoteSupportedCapabilitiesStatus"),
            .complete(LECSWriteCachedRemoteSupportedCapabilities.self, StatusConnectionHandleReturn(connectionHandle: h),
                      python: cc("LeCsWriteCachedRemoteSupportedCapabilitiesComplete", withHandle), type: "LeCsWriteCachedRemoteSupportedCapabilitiesComplete",
                      fields: handleField, expected: "(0, 64)"),
            .status(LECSSecurityEnable.self, python: cs("LeCsSecurityEnableStatus"), type: "LeCsSecurityEnableStatus"),
            .complete(LECSSetDefaultSettings.self, StatusConnectionHandleReturn(connectionHandle: h),
                      python: cc("LeCsSetDefaultSettingsComplete", withHandle), type: "LeCsSetDefaultSettingsComplete", fields: handleField, expected: "(0, 64)"),
            .status(LECSReadRemoteFAETable.self, python: cs("LeCsReadRemoteFaeTableStatus"), type: "LeCsReadRemoteFaeTableStatus"),
            .complete(LECSWriteCachedRemoteFAETable.self, StatusConnectionHandleReturn(status: .unknownConnectionIdentifier, connectionHandle: h),
                      python: "hci.LeCsWriteCachedRemoteFaeTableComplete(num_hci_command_packets=1, status=hci.ErrorCode.UNKNOWN_CONNECTION\(withHandle))",
                      type: "LeCsWriteCachedRemoteFaeTableComplete", fields: handleField, expected: "(2, 64)"),
            .status(LECSCreateConfig.self, python: cs("LeCsCreateConfigStatus"), type: "LeCsCreateConfigStatus"),
            .status(LECSRemoveConfig.self, python: cs("LeCsRemoveConfigStatus"), type: "LeCsRemoveConfigStatus"),
            .complete(LECSSetChannelClassification.self, StatusReturn(), python: cc("LeCsSetChannelClassificationComplete"),
                      type: "LeCsSetChannelClassificationComplete", fields: "int(c.status)", expected: "0"),
            .complete(LECSSetProcedureParameters.self, StatusConnectionHandleReturn(connectionHandle: h),
                      python: cc("LeCsSetProcedureParametersComplete", withHandle), type: "LeCsSetProcedureParametersComplete", fields: handleField, expected: "(0, 64)"),
            .status(LECSProcedureEnable.self, python: cs("LeCsProcedureEnableStatus"), type: "LeCsProcedureEnableStatus"),
            .status(LECSTestEnd.self, python: cs("LeCsTestEndStatus"), type: "LeCsTestEndStatus"),
        ]
    }

    // MARK: LE Meta events

    static var events: [Case] {
        let configFields = "(int(c.status), c.connection_handle, c.config_id, int(c.action), int(c.main_mode_type), int(c.sub_mode_type), c.min_main_mode_steps, "
            + "c.max_main_mode_steps, c.main_mode_repetition, c.mode_0_steps, int(c.role), int(c.rtt_type), int(c.cs_sync_phy), bytes(c.channel_map).hex(), "
            + "c.channel_map_repetition, int(c.channel_selection_type), int(c.ch3c_shape), c.ch3c_jump, c.reserved, c.t_ip1_time, c.t_ip2_time, c.t_fcs_time, c.t_pm_time)"
        let resultHeader = "(c.connection_handle, c.config_id, c.start_acl_conn_event_counter, c.procedure_counter, c.frequency_compensation, c.reference_power_level, "
            + "int(c.procedure_done_status), int(c.subevent_done_status), int(c.procedure_abort_reason), int(c.subevent_abort_reason), c.num_antenna_paths, \(stepFields))"
        let continueHeader = "(c.connection_handle, c.config_id, int(c.procedure_done_status), int(c.subevent_done_status), int(c.procedure_abort_reason), "
            + "int(c.subevent_abort_reason), c.num_antenna_paths, \(stepFields))"
        func result(_ r: LECSSubeventResult, _ list: [V.Step], pds: String, sds: String) -> String {
            "hci.LeCsSubeventResult(connection_handle=0x40, config_id=\(r.configID), start_acl_conn_event_counter=\(r.startACLConnectionEventCounter), "
                + "procedure_counter=\(r.procedureCounter), frequency_compensation=\(r.frequencyCompensation), reference_power_level=\(r.referencePowerLevel), "
                + "procedure_done_status=hci.CsProcedureDoneStatus.\(pds), subevent_done_status=hci.CsSubeventDoneStatus.\(sds), "
                + "procedure_abort_reason=hci.ProcedureAbortReason.NO_ABORT, subevent_abort_reason=hci.SubeventAbortReason.NO_ABORT, "
                + "num_antenna_paths=\(r.numAntennaPaths), cs_step=\(steps(list)))"
        }
        return [
            .remoteCapabilities("LE CS Read Remote Supported Capabilities Complete", LECSReadRemoteSupportedCapabilitiesComplete(connectionHandle: h, capabilities: V.capabilities.v1Only),
                                python: "hci.LeCsReadRemoteSupportedCapabilitiesComplete(\(ok), connection_handle=0x40, \(caps))",
                                type: "LeCsReadRemoteSupportedCapabilitiesComplete",
                                fields: "(int(c.status), c.connection_handle, c.num_antennae_supported, c.max_antenna_paths_supported, c.modes_supported, c.nadm_sounding_capability, c.cs_sync_phys_supported, c.t_ip1_times_supported, c.t_pm_times_supported)",
                                expected: "(0, 64, 2, 4, 1, 1, 2, 5, 1)"),
            .subevent("LE CS Read Remote FAE Table Complete", LECSReadRemoteFAETableComplete(connectionHandle: h, table: V.faeTable),
                      python: "hci.LeCsReadRemoteFaeTableComplete(\(ok), connection_handle=0x40, remote_fae_table=[(i - 36) & 0xFF for i in range(72)])",
                      type: "LeCsReadRemoteFaeTableComplete", fields: "(c.connection_handle, bytes(c.remote_fae_table)[:2].hex(), bytes(c.remote_fae_table)[-1])",
                      expected: "(64, 'dcdd', 35)"),
            .subevent("LE CS Security Enable Complete", LECSSecurityEnableComplete(status: .insufficientSecurity, connectionHandle: h),
                      python: "hci.LeCsSecurityEnableComplete(status=hci.ErrorCode.INSUFFICIENT_SECURITY, connection_handle=0x40)",
                      type: "LeCsSecurityEnableComplete", fields: "(int(c.status), c.connection_handle)", expected: "(47, 64)"),
            .subevent("LE CS Config Complete, created", LECSConfigComplete(connectionHandle: h, created: V.configuration),
                      python: "hci.LeCsConfigComplete(\(ok), connection_handle=0x40, config_id=2, action=hci.CsAction.CONFIG_CREATED, main_mode_type=hci.CsMainModeType.MODE_2, "
                        + "sub_mode_type=hci.CsSubModeType.MODE_1, min_main_mode_steps=3, max_main_mode_steps=10, main_mode_repetition=1, mode_0_steps=2, "
                        + "role=hci.CsRole.INITIATOR, rtt_type=hci.CsRttType.RTT_WITH_64_BIT_RANDOM_SEQUENCE, cs_sync_phy=hci.CsSyncPhy.LE_2M_PHY, "
                        + "channel_map=list(B('\(V.allowedMap)')), channel_map_repetition=2, channel_selection_type=hci.CsChannelSelectionType.TYPE_3C, "
                        + "ch3c_shape=hci.CsCh3cShape.X_SHAPE, ch3c_jump=4, reserved=0, t_ip1_time=30, t_ip2_time=20, t_fcs_time=60, t_pm_time=20)",
                      type: "LeCsConfigComplete", fields: configFields,
                      expected: "(0, 64, 2, 1, 2, 1, 3, 10, 1, 2, 0, 4, 2, '\(V.allowedMap)', 2, 1, 1, 4, 0, 30, 20, 60, 20)"),
            .subevent("LE CS Procedure Enable Complete", LECSProcedureEnableComplete(
                connectionHandle: h, configID: 1, enabled: true, antennaConfigurationIndex: 7, selectedTxPower: 4, subeventLength: 10_000, subeventsPerEvent: 2,
                subeventInterval: 0x0102, eventInterval: 3, procedureInterval: 4, procedureCount: 5, maxProcedureLength: 0x0640),
                      python: "hci.LeCsProcedureEnableComplete(\(ok), connection_handle=0x40, config_id=1, state=hci.Enable.ENABLED, tone_antenna_config_selection=7, "
                        + "selected_tx_power=4, subevent_len=10000, subevents_per_event=2, subevent_interval=0x0102, event_interval=3, procedure_interval=4, "
                        + "procedure_count=5, max_procedure_len=0x0640)",
                      type: "LeCsProcedureEnableComplete",
                      fields: "(c.config_id, int(c.state), c.tone_antenna_config_selection, c.selected_tx_power, c.subevent_len, c.subevents_per_event, c.subevent_interval, c.event_interval, c.procedure_interval, c.procedure_count, c.max_procedure_len)",
                      expected: "(1, 1, 7, 4, 10000, 2, 258, 3, 4, 5, 1600)"),
            .result("LE CS Subevent Result, initiator, modes 0 1 2 3", V.initiatorResult, role: .initiator, sequencePCT: false,
                    python: result(V.initiatorResult, V.initiatorSteps, pds: "PARTIAL_RESULTS", sds: "ALL_RESULTS_COMPLETE"),
                    type: "LeCsSubeventResult", fields: resultHeader, expected: "(64, 1, 4660, 5, 258, 5, 1, 0, 0, 0, 2, \(V.stepsRead(V.initiatorSteps)))"),
            .result("LE CS Subevent Result, reflector, PCT1/PCT2", V.reflectorResult, role: .reflector, sequencePCT: true,
                    python: result(V.reflectorResult, V.reflectorSteps, pds: "ALL_RESULTS_COMPLETE", sds: "ALL_RESULTS_COMPLETE"),
                    type: "LeCsSubeventResult", fields: resultHeader, expected: "(64, 2, 0, 65535, 49152, 127, 0, 0, 0, 0, 1, \(V.stepsRead(V.reflectorSteps)))"),
            .result("LE CS Subevent Result Continue, aborted, N_AP 4", V.abortedContinue, role: .initiator, sequencePCT: false,
                    python: "hci.LeCsSubeventResultContinue(connection_handle=0x40, config_id=3, procedure_done_status=hci.CsProcedureDoneStatus.ABORTED, "
                        + "subevent_done_status=hci.CsSubeventDoneStatus.ABORTED, procedure_abort_reason=hci.ProcedureAbortReason.INSUFFICIENT_FILTERED_CHANNELS, "
                        + "subevent_abort_reason=hci.SubeventAbortReason.SCHEDULING_CONFLICTS_OR_LIMITED_RESOURCES, num_antenna_paths=4, cs_step=\(steps([V.fourPathStep])))",
                    type: "LeCsSubeventResultContinue", fields: continueHeader, expected: "(64, 3, 15, 15, 2, 3, 4, \(V.stepsRead([V.fourPathStep])))"),
            .subevent("LE CS Test End Complete", LECSTestEndComplete(status: .success), python: "hci.LeCsTestEndComplete(\(ok))",
                      type: "LeCsTestEndComplete", fields: "int(c.status)", expected: "0"),
        ]
    }

    // MARK: Disagreements

    /// Where RootCanal and Core 6.0 Vol 4 Part E part (ours follows the spec; docs/rootcanal.md,
    /// "Codec differences", says why each time). Every one would fail here if it changed.
    static var disagreements: [Case] {
        let negativePower = LECSSubeventResult(connectionHandle: h, configID: 0, startACLConnectionEventCounter: 0, procedureCounter: 0, referencePowerLevel: -20,
                                               numAntennaPaths: 1, steps: [])
        return [
            // §7.7.65.42: after Action "removed" the other fields carry nothing (ours writes 0).
            // RootCanal's parser requires Main_Mode_Type, Sub_Mode_Type and CS_SYNC_PHY to be values
            // of their enumerations even then (0 is none), so a removal written with zeros is a
            // generic `LeMetaEvent` to it (its constructor, given the zeros, builds our octets).
            .subevent("LE CS Config Complete, removed", LECSConfigComplete(connectionHandle: h, configID: 3, action: .removed, configuration: nil),
                      python: "hci.LeCsConfigComplete(\(ok), connection_handle=0x40, config_id=3, action=hci.CsAction.CONFIG_REMOVED, main_mode_type=0, sub_mode_type=0, "
                        + "role=0, rtt_type=0, cs_sync_phy=0, channel_map=[0] * 10, channel_selection_type=0, ch3c_shape=0)",
                      type: "LeMetaEvent", fields: "bytes(c.payload).hex()[:10]", expected: "'0040000300'"),
            // §7.7.65.44: Reference_Power_Level is a signed octet (−127 to 20 dBm). RootCanal's is
            // unsigned: it reads −20 dBm (0xEC) as 236, and its constructor takes 236, not −20.
            Case(name: "Reference_Power_Level −20 dBm", ours: negativePower.packet,
                 python: "hci.LeCsSubeventResult(connection_handle=0x40, frequency_compensation=0xC000, reference_power_level=236, num_antenna_paths=1)", type: "LeCsSubeventResult",
                 fields: "(c.reference_power_level, attempt(lambda: h4(hci.LeCsSubeventResult(connection_handle=0x40, reference_power_level=-20, num_antenna_paths=1)))[:10])",
                 expected: "(236, 'ERR ValueE')",
                 decodes: { (try? LECSSubeventResult.decode(packet: $0, role: .initiator))?.referencePowerLevel == -20 }),
            // §7.7.65.43: Selected_TX_Power is signed (−127 to 20 dBm); RootCanal reads −4 (0xFC) as 252.
            .subevent("Selected_TX_Power −4 dBm", LECSProcedureEnableComplete(connectionHandle: h, configID: 1, enabled: true, selectedTxPower: -4),
                      python: "", type: "LeCsProcedureEnableComplete", fields: "c.selected_tx_power", expected: "252"),
            // §7.8.134: Max_TX_Power is signed; RootCanal reads −3 (0xFD) as 253.
            .command(LECSSetDefaultSettings(connectionHandle: h, initiatorEnabled: false, reflectorEnabled: true, csSyncAntennaSelection: 1, maxTxPower: -3),
                     python: "", type: "LeCsSetDefaultSettings", fields: "c.max_tx_power", expected: "253").named("Max_TX_Power −3 dBm"),
            // §7.8.140: Tx_Power_Delta is signed (0x80: no preference); RootCanal reads −3 as 253.
            .command(LECSSetProcedureParameters(connectionHandle: h, configID: 1, parameters: ProcedureParameters(txPowerDelta: -3)),
                     python: "", type: "LeCsSetProcedureParameters", fields: "c.tx_power_delta", expected: "253").named("Tx_Power_Delta −3 dB"),
            // §7.7.65.44: Config_ID is an octet of range 0–3. RootCanal's PDL gives it 2 bits (6
            // reserved) in Subevent Result: a Config_ID of 5 parses silently as 1 and is written
            // back as 01; ours refuses the event (invalidValue), which is what a value out of range is.
            Case(name: "Subevent Result with Config_ID 5", ours: HCIPacket(leSubevent: LESubeventCode.csSubeventResult,
                                                                          body: Hex.bytes("4000" + "05" + "0000" + "0000" + "00c0" + "7f" + "00000001" + "00")),
                 python: "", type: "LeCsSubeventResult", fields: "c.config_id", expected: "1")
                .writtenBack(as: "043e1031" + "4000" + "01" + "0000" + "0000" + "00c0" + "7f" + "00000001" + "00"),
            // §7.8.130: CS_SYNC_PHYs_Supported bit 1 is LE 2M, bit 2 LE 2M 2BT, bit 0 RFU (Zephyr,
            // BlueZ, TI). RootCanal's `CsSyncPhysSupported` puts LE 2M at 0x01 (and its controller
            // reports 0x01): our 0x02 (LE 2M) is its LE_2M_2BT_PHY. Its field is a plain integer,
            // so the octet is kept.
            .remoteCapabilities("CS_SYNC_PHYs_Supported 0x02 (LE 2M)", LECSReadRemoteSupportedCapabilitiesComplete(connectionHandle: h, capabilities: V.capabilities.v1Only),
                                python: "", type: "LeCsReadRemoteSupportedCapabilitiesComplete",
                                fields: "(c.cs_sync_phys_supported, hci.CsSyncPhysSupported(c.cs_sync_phys_supported).name)", expected: "(2, 'LE_2M_2BT_PHY')"),
            // §7.8.140: Preferred_Peer_Antenna is a bit field (any of bits 0–3); RootCanal's is an
            // enumeration of single antennas, so 0x03 does not parse and comes back as the generic
            // `Command`, same octets.
            .command(LECSSetProcedureParameters(connectionHandle: h, configID: 1, parameters: ProcedureParameters(preferredPeerAntenna: 0x03)),
                     python: "", type: "Command").named("Preferred_Peer_Antenna 0x03"),
            // §7.8.143: LE CS Test End is answered by Command Status (RootCanal agrees, above): a
            // Command Complete for it is a generic `CommandComplete` to RootCanal.
            Case(name: "Command Complete of LE CS Test End", ours: CommandCompleteEvent(opcode: LECSTestEnd.opcode, status: .success).packet,
                 python: "", type: "CommandComplete"),
            // A failed LE CS Read Local Supported Capabilities: ours returns Status alone (what
            // follows a failed Status is the controller's choice, §4.5; our decoder takes either).
            // RootCanal's class needs the whole block whatever the status: a generic `CommandComplete`.
            Case(name: "Command Complete of LE CS Read Local Supported Capabilities, failed",
                 ours: CommandCompleteEvent(opcode: LECSReadLocalSupportedCapabilities.opcode,
                                            returnParameters: LECSLocalCapabilitiesReturn(status: .unknownCommand, capabilities: CSCapabilities(), layout: .v1).encode()).packet,
                 python: "", type: "CommandComplete"),
            // RootCanal has no Core 6.3 packet: LE CS Read Local Supported Capabilities v2 is a
            // generic `Command`, its Command Complete a generic `CommandComplete`, LE CS Write
            // Cached Remote Supported Capabilities v2 a generic `Command`, and the v2 remote
            // capabilities event (0x38) a generic `Event`.
            .command(LECSReadLocalSupportedCapabilitiesV2(), python: "", type: "Command"),
            Case(name: "Command Complete of LE CS Read Local Supported Capabilities v2",
                 ours: CommandCompleteEvent(opcode: LECSReadLocalSupportedCapabilitiesV2.opcode,
                                            returnParameters: LECSLocalCapabilitiesReturn(capabilities: V.capabilities, layout: .v2WithPHYSpecificRTT).encode()).packet,
                 python: "", type: "CommandComplete"),
            .command(LECSWriteCachedRemoteSupportedCapabilitiesV2(connectionHandle: h, capabilities: V.capabilities, layout: .v2WithPHYSpecificRTT),
                     python: "", type: "Command"),
            .remoteCapabilities("LE CS Read Remote Supported Capabilities Complete v2",
                                LECSReadRemoteSupportedCapabilitiesComplete(connectionHandle: h, capabilities: V.capabilities, layout: .v2WithPHYSpecificRTT),
                                python: "", type: "Event"),
        ]
    }

    /// The firmware's split of a long subevent, RootCanal building each event from the same
    /// steps and statuses.
    static var split: [Case] {
        CSOracleCheck.split(
            python: { e, i in
                let last = i == V.longSubeventEvents.count - 1
                let status = last ? "ALL_RESULTS_COMPLETE" : "PARTIAL_RESULTS"
                let tail = "procedure_done_status=hci.CsProcedureDoneStatus.\(status), subevent_done_status=hci.CsSubeventDoneStatus.\(status), "
                    + "num_antenna_paths=4, cs_step=\(steps(Array(repeating: V.fourPathStep, count: e.steps.count))))"
                return i == 0
                    ? "hci.LeCsSubeventResult(connection_handle=0x40, config_id=1, start_acl_conn_event_counter=7, procedure_counter=8, frequency_compensation=0xC000, reference_power_level=127, " + tail
                    : "hci.LeCsSubeventResultContinue(connection_handle=0x40, config_id=1, " + tail
            },
            result: "LeCsSubeventResult", continuation: "LeCsSubeventResultContinue",
            fields: "(int(c.procedure_done_status), int(c.subevent_done_status), len(c.cs_step))",
            expected: { e in
                let s = e == V.longSubeventEvents.last ? 0 : 1
                return "(\(s), \(s), \(e.steps.count))"
            })
    }

    /// The firmware's own answers and events (`CSFirmwareOutput`), each RootCanal's CS class.
    static var firmware: [Case] {
        let complete: [UInt16: String] = [
            0x2089: "LeCsReadLocalSupportedCapabilities", 0x208B: "LeCsWriteCachedRemoteSupportedCapabilities", 0x208D: "LeCsSetDefaultSettings",
            0x208F: "LeCsWriteCachedRemoteFaeTable", 0x2092: "LeCsSetChannelClassification", 0x2093: "LeCsSetProcedureParameters",
        ]
        let status: [UInt16: String] = [
            0x208A: "LeCsReadRemoteSupportedCapabilities", 0x208C: "LeCsSecurityEnable", 0x208E: "LeCsReadRemoteFaeTable", 0x2090: "LeCsCreateConfig",
            0x2091: "LeCsRemoveConfig", 0x2094: "LeCsProcedureEnable",
        ]
        let meta: [UInt8: String] = [
            0x2C: "LeCsReadRemoteSupportedCapabilitiesComplete", 0x2D: "LeCsReadRemoteFaeTableComplete", 0x2E: "LeCsSecurityEnableComplete",
            0x2F: "LeCsConfigComplete", 0x30: "LeCsProcedureEnableComplete", 0x31: "LeCsSubeventResult", 0x32: "LeCsSubeventResultContinue",
        ]
        return CSFirmwareOutput.cases(type: { p in
            let k = CSFirmwareOutput.key(p)
            // The v2 capabilities' Command Complete (Core 6.3) is a generic CommandComplete to RootCanal (knownDisagreements).
            if k.complete == LECSReadLocalSupportedCapabilitiesV2.opcode { return "CommandComplete" }
            // A removed configuration's Config Complete (zeros after Action) is a generic LeMetaEvent to RootCanal (knownDisagreements).
            if k.subevent == LESubeventCode.csConfigComplete, (try? LECSConfigComplete.decode(packet: p))?.action == .removed { return "LeMetaEvent" }
            return k.complete.flatMap { complete[$0].map { $0 + "Complete" } } ?? k.status.flatMap { status[$0].map { $0 + "Status" } }
                ?? k.subevent.flatMap { meta[$0] } ?? "a packet the firmware should not send here"
        }, stepCount: "len(c.cs_step)")
    }

    static let oracle = CSOracleCheck.answers(commands + answers + events + disagreements + split + firmware) { cases in
        try RootCanalOracle.answers(cases.map { RootCanalOracle.Vector($0.python, ours: Hex.string($0.ours.h4Bytes), fields: $0.fields) })
            .map { CSOracleAnswer(built: $0.built, parsed: $0.parsed, type: $0.type, fields: $0.fields) }
    }

    @Test func commands() throws { try Self.run(Self.commands) }
    @Test func commandAnswers() throws { try Self.run(Self.answers) }
    @Test func events() throws { try Self.run(Self.events) }
    @Test func knownDisagreements() throws { try Self.run(Self.disagreements) }

    /// What the firmware sends a host, parsed by RootCanal as its CS classes, unchanged.
    @Test func theFirmwaresOwnPackets() throws { try Self.checkFirmware() }

    /// Firmware encodes, host decodes: our split of a long subevent is RootCanal's, and our
    /// reassembler joins RootCanal's events into the whole subevent.
    @Test func longSubeventSplitAndJoined() throws { try Self.checkSplitAndJoin() }

    /// The vectors' octets are the layouts of §7.7.65.39–46 as written out by hand, so the
    /// oracles' constructors (which take those octets' fields) check our encoders.
    @Test func vectorsAreTheSpecLayouts() {
        #expect(Hex.string(LECSReadRemoteSupportedCapabilitiesComplete(connectionHandle: Self.h, capabilities: V.capabilities).encode()) == "004000" + V.capabilitiesV1Hex)
        #expect(Hex.string(V.capabilities.hciBytes(layout: .v2WithPHYSpecificRTT)) == V.capabilitiesV1Hex + V.capabilitiesV2TailHex)
        #expect(Hex.string(LECSConfigComplete(connectionHandle: Self.h, created: V.configuration).encode()) == V.configCompleteHex)
        #expect(Hex.string(V.initiatorResult.encode()) == "4000" + "01" + "3412" + "0500" + "0201" + "05" + "01" + "00" + "00" + "02" + "04" + V.hex(V.initiatorSteps))
        #expect(Hex.string(V.reflectorResult.encode()) == "4000" + "02" + "0000" + "ffff" + "00c0" + "7f" + "00" + "00" + "00" + "01" + "03" + V.hex(V.reflectorSteps))
        #expect(Hex.string(V.abortedContinue.encode()) == "4000" + "03" + "0f" + "0f" + "32" + "04" + "01" + V.fourPathStep.hex)
        for s in V.initiatorSteps + V.reflectorSteps + [V.fourPathStep] {
            var w = ByteWriter()
            s.step.encode(into: &w)
            #expect(Hex.string(w.bytes) == s.hex, "step of mode \(s.mode) on channel \(s.channel)")
        }
    }

    /// RootCanal's own LE CS Config Complete (its controller sends T_IP1/T_IP2/T_FCS/T_PM = 0,
    /// docs/rootcanal.md): the strict decoder refuses it (§7.7.65.42 allows only the selectable
    /// times), the hosts' decoder keeps the zeros as reported.
    @Test func rootCanalsZeroTimesConfigComplete() throws {
        let built = try #require(try Self.oracle.get()["LE CS Config Complete, created"]).built
        var zero = Hex.bytes(built)
        zero.replaceSubrange(zero.count - 4..<zero.count, with: [0, 0, 0, 0])
        let packet = try HCIPacket(h4: zero)
        let body = try packet.leSubeventBody(LESubeventCode.csConfigComplete)
        #expect(throws: DecodeError.invalidValue(field: "T_IP1_Time", value: 0)) { _ = try LECSConfigComplete.decode(body) }
        let kept = try LECSConfigComplete.decodeKeepingUnlistedTimes(body)
        #expect(kept.configuration?.timing == CSTiming(tIP1: 0, tIP2: 0, tFCS: 0, tPM: 0, tSW: 0))
        #expect(kept.configuration?.channelSelection == .algorithm3c(shape: .x, jump: 4))
    }
}

extension CSCapabilities {
    /// What the 28-octet v1 block carries of these capabilities: the Core 6.3 fields at their
    /// defaults.
    var v1Only: CSCapabilities {
        var c = self
        (c.tIP2IPTTimes, c.tSWIPT, c.rtt2MAccessAddressOnlyN, c.rtt2MSoundingN, c.rtt2MRandomSequenceN) = (.mandatory(.tIP2), .none, 0, 0, 0)
        return c
    }
}
