@testable import ReflectorFirmware
import TestSupport
import Testing

/// Our HCI Channel Sounding codecs against Bumble's (`bumble.hci` 0.0.236, its `HCI_LE_CS_*`
/// command, return-parameter and event classes; `Tests/Peers/bumble_oracle.py`), in one
/// Python process for the suite: every CS command we send, every answer (Command Complete with
/// its return parameters, Command Status) and every LE Meta CS event, Core 6.3's where Bumble
/// has them (the v2 capabilities, CS_Enhancements' inline PCT). Bumble parses ours as the right
/// class and writes it back unchanged, reads the fields we meant, and builds the same octets
/// from its constructors, which our decoders read back to the value we encoded (the same
/// vectors as `CSCodecsRootCanalTests`, `CSOracleVectors`).
///
/// Where Bumble disagrees, the disagreement is pinned in `knownDisagreements` and written down
/// with who is right in docs/rootcanal.md ("Codec differences").
@Suite struct CSCodecsBumbleTests: CSOracleSuite {
    static let oracleName = "Bumble"
    typealias Case = CSOracleCase
    typealias V = CSOracleVectors

    static let h = V.handle
    static let caps = V.capabilitiesKeywords(numAntennas: "num_antennas_supported")
    /// Core 6.3's tail of the v2 block, Bumble's names (34 octets in all).
    static let capsV2 = caps + ", t_ip2_ipt_times_supported=3, t_sw_ipt_times_supported=1, rtt_2m_aa_only_n=4, rtt_2m_sounding_n=5, rtt_2m_random_sequence_n=6"
    static let capsFields = "(c.num_config_supported, c.max_consecutive_procedures_supported, c.num_antennas_supported, c.max_antenna_paths_supported, "
        + "c.roles_supported, c.modes_supported, c.rtt_capability, c.rtt_aa_only_n, c.rtt_sounding_n, c.rtt_random_sequence_n, c.nadm_sounding_capability, "
        + "c.nadm_random_capability, c.cs_sync_phys_supported, c.subfeatures_supported, c.t_ip1_times_supported, c.t_ip2_times_supported, "
        + "c.t_fcs_times_supported, c.t_pm_times_supported, c.t_sw_time_supported, c.tx_snr_capability)"
    static let capsRead = "(4, 258, 2, 4, 3, 1, 5, 1, 2, 3, 1, 0, 2, 6, 5, 65, 384, 1, 2, 17)"

    /// Bumble's (mode, channel, data) lists for the vectors' hand-written steps.
    static func steps(_ steps: [V.Step]) -> String {
        "step_mode=[\(steps.map { "\($0.mode)" }.joined(separator: ", "))], step_channel=[\(steps.map { "\($0.channel)" }.joined(separator: ", "))], "
            + "step_data=[\(steps.map { "B('\($0.dataHex)')" }.joined(separator: ", "))]"
    }
    static let stepFields = "list(zip(c.step_mode, c.step_channel, [d.hex() for d in c.step_data]))"

    static var inlinePCTConfiguration: CSConfiguration {
        var c = V.requestedConfiguration
        (c.channelSelection, c.inlinePCT) = (.algorithm3b, true)
        return c
    }

    // MARK: Commands

    static var commands: [Case] {
        let createConfig = "hci.HCI_LE_CS_Create_Config_Command(connection_handle=0x40, config_id=2, create_context=1, main_mode_type=2, sub_mode_type=1, "
            + "min_main_mode_steps=3, max_main_mode_steps=10, main_mode_repetition=1, mode_0_steps=2, role=0, rtt_type=4, cs_sync_phy=2, "
            + "channel_map=B('\(V.allowedMap)'), channel_map_repetition=2, "
        return [
            .command(LECSReadLocalSupportedCapabilities(), python: "hci.HCI_LE_CS_Read_Local_Supported_Capabilities_Command()",
                     type: "HCI_LE_CS_Read_Local_Supported_Capabilities_Command"),
            .command(LECSReadLocalSupportedCapabilitiesV2(), python: "hci.HCI_LE_CS_Read_Local_Supported_Capabilities_V2_Command()",
                     type: "HCI_LE_CS_Read_Local_Supported_Capabilities_V2_Command"),
            .command(LECSReadRemoteSupportedCapabilities(connectionHandle: h), python: "hci.HCI_LE_CS_Read_Remote_Supported_Capabilities_Command(connection_handle=0x40)",
                     type: "HCI_LE_CS_Read_Remote_Supported_Capabilities_Command", fields: "c.connection_handle", expected: "64"),
            .command(LECSWriteCachedRemoteSupportedCapabilities(connectionHandle: h, capabilities: V.capabilities.v1Only),
                     python: "hci.HCI_LE_CS_Write_Cached_Remote_Supported_Capabilities_Command(connection_handle=0x40, \(caps))",
                     type: "HCI_LE_CS_Write_Cached_Remote_Supported_Capabilities_Command", fields: capsFields, expected: capsRead),
            .command(LECSSecurityEnable(connectionHandle: h), python: "hci.HCI_LE_CS_Security_Enable_Command(connection_handle=0x40)",
                     type: "HCI_LE_CS_Security_Enable_Command"),
            .command(LECSSetDefaultSettings(connectionHandle: h, initiatorEnabled: true, reflectorEnabled: true, csSyncAntennaSelection: 0xFE, maxTxPower: 20),
                     python: "hci.HCI_LE_CS_Set_Default_Settings_Command(connection_handle=0x40, role_enable=3, cs_sync_antenna_selection=0xFE, max_tx_power=20)",
                     type: "HCI_LE_CS_Set_Default_Settings_Command",
                     fields: "(c.connection_handle, c.role_enable, c.cs_sync_antenna_selection, c.max_tx_power)", expected: "(64, 3, 254, 20)"),
            .command(LECSReadRemoteFAETable(connectionHandle: h), python: "hci.HCI_LE_CS_Read_Remote_FAE_Table_Command(connection_handle=0x40)",
                     type: "HCI_LE_CS_Read_Remote_FAE_Table_Command"),
            .command(LECSWriteCachedRemoteFAETable(connectionHandle: h, table: V.faeTable),
                     python: "hci.HCI_LE_CS_Write_Cached_Remote_FAE_Table_Command(connection_handle=0x40, remote_fae_table=bytes((i - 36) & 0xFF for i in range(72)))",
                     type: "HCI_LE_CS_Write_Cached_Remote_FAE_Table_Command", fields: "(c.connection_handle, c.remote_fae_table[:2].hex(), c.remote_fae_table[-1])",
                     expected: "(64, 'dcdd', 35)"),
            .command(LECSCreateConfig(connectionHandle: h, configuration: V.requestedConfiguration),
                     python: createConfig + "channel_selection_type=1, ch3c_shape=1, ch3c_jump=4, cs_enhancements=0)", type: "HCI_LE_CS_Create_Config_Command",
                     fields: "(c.config_id, c.create_context, c.main_mode_type, c.sub_mode_type, c.rtt_type, c.cs_sync_phy, int(c.channel_selection_type), int(c.ch3c_shape), c.ch3c_jump, c.cs_enhancements)",
                     expected: "(2, 1, 2, 1, 4, 2, 1, 1, 4, 0)"),
            // Core 6.3: CS_Enhancements_1 bit 0, inline PCT transfer in the reflector (#3b: Ch3c_Shape 0, Ch3c_Jump 2 written, ignored).
            .command(LECSCreateConfig(connectionHandle: h, configuration: inlinePCTConfiguration),
                     python: createConfig + "channel_selection_type=0, ch3c_shape=0, ch3c_jump=2, cs_enhancements=1)", type: "HCI_LE_CS_Create_Config_Command",
                     fields: "c.cs_enhancements", expected: "1").named("LE CS Create Config, inline PCT (Core 6.3)"),
            .command(LECSRemoveConfig(connectionHandle: h, configID: 3), python: "hci.HCI_LE_CS_Remove_Config_Command(connection_handle=0x40, config_id=3)",
                     type: "HCI_LE_CS_Remove_Config_Command"),
            .command(LECSSetChannelClassification(classification: .allowed),
                     python: "hci.HCI_LE_CS_Set_Channel_Classification_Command(channel_classification=B('\(V.allowedMap)'))",
                     type: "HCI_LE_CS_Set_Channel_Classification_Command"),
            .command(LECSSetProcedureParameters(connectionHandle: h, configID: 1, parameters: ProcedureParameters(
                maxProcedureLength: 0x0640, minProcedureInterval: 2, maxProcedureInterval: 3, maxProcedureCount: 0, minSubeventLength: 1250, maxSubeventLength: 40_000,
                antennaConfiguration: AntennaConfiguration(index: 0)!, phy: 1, txPowerDelta: nil, preferredPeerAntenna: 0x03)),
                     python: "hci.HCI_LE_CS_Set_Procedure_Parameters_Command(connection_handle=0x40, config_id=1, max_procedure_len=0x0640, min_procedure_interval=2, "
                        + "max_procedure_interval=3, max_procedure_count=0, min_subevent_len=1250, max_subevent_len=40000, tone_antenna_config_selection=0, phy=1, "
                        + "tx_power_delta=0x80, preferred_peer_antenna=3, snr_control_initiator=0xFF, snr_control_reflector=0xFF)",
                     type: "HCI_LE_CS_Set_Procedure_Parameters_Command",
                     fields: "(c.max_procedure_len, c.max_procedure_count, c.min_subevent_len, c.max_subevent_len, c.preferred_peer_antenna, c.snr_control_initiator)",
                     expected: "(1600, 0, 1250, 40000, 3, 255)"),
            .command(LECSProcedureEnable(connectionHandle: h, configID: 1, enable: true),
                     python: "hci.HCI_LE_CS_Procedure_Enable_Command(connection_handle=0x40, config_id=1, enable=1)", type: "HCI_LE_CS_Procedure_Enable_Command"),
            .command(LECSTestEnd(), python: "hci.HCI_LE_CS_Test_End_Command()", type: "HCI_LE_CS_Test_End_Command"),
        ]
    }

    // MARK: Command Complete and Command Status

    /// Each CS command's answer as our declarations (`HCICommand.answer`, `ReturnParameters`)
    /// and our controller give it, against the class Bumble declares the command with
    /// (`HCI_SyncCommand` with its `return_parameters_class`, or `HCI_AsyncCommand`).
    static var answers: [Case] {
        func cc(_ opcode: UInt16, _ returned: String) -> String {
            "hci.HCI_Command_Complete_Event(num_hci_command_packets=1, command_opcode=\(opcode), return_parameters=hci.\(returned))"
        }
        func cs(_ opcode: UInt16) -> String { "hci.HCI_Command_Status_Event(status=0, num_hci_command_packets=1, command_opcode=\(opcode))" }
        func async(_ bumble: String) -> String { "issubclass(hci.\(bumble), hci.HCI_AsyncCommand)" }
        let handleReturn = "HCI_StatusAndConnectionHandleReturnParameters"
        func handle<C: HCICommand>(_ c: C.Type, _ bumble: String) -> Case where C.ReturnParameters == StatusConnectionHandleReturn {
            .complete(C.self, StatusConnectionHandleReturn(connectionHandle: h), python: cc(C.opcode, "\(handleReturn)(status=0, connection_handle=0x40)"),
                      type: "HCI_Command_Complete_Event",
                      fields: "(type(c.return_parameters).__name__, int(c.return_parameters.status), c.return_parameters.connection_handle, hci.\(bumble).return_parameters_class.__name__)",
                      expected: "('\(handleReturn)', 0, 64, '\(handleReturn)')")
        }
        func status<C: HCICommand>(_ c: C.Type, _ bumble: String) -> Case {
            .status(C.self, python: cs(C.opcode), type: "HCI_Command_Status_Event", fields: async(bumble), expected: "True")
        }
        let capsReturned = LECSLocalCapabilitiesReturn(capabilities: V.capabilities, layout: .v1)
        let capsV2Returned = LECSLocalCapabilitiesReturn(capabilities: V.capabilities, layout: .v2WithPHYSpecificRTT)
        func capsDecode(_ opcode: UInt16, v2: Bool, _ value: CSCapabilities) -> @Sendable (HCIPacket) -> Bool {
            { p in
                guard let e = try? CommandCompleteEvent.decode(packet: p), e.opcode == opcode else { return false }
                return (try? LECSLocalCapabilitiesReturn.decode(e.returnParameters, v2: v2))?.capabilities == value
            }
        }
        return [
            Case(name: "Command Complete of LE CS Read Local Supported Capabilities",
                 ours: CommandCompleteEvent(opcode: LECSReadLocalSupportedCapabilities.opcode, returnParameters: capsReturned.encode()).packet,
                 python: cc(LECSReadLocalSupportedCapabilities.opcode, "HCI_LE_CS_Read_Local_Supported_Capabilities_ReturnParameters(status=0, \(caps))"),
                 type: "HCI_Command_Complete_Event", fields: capsFields.replacingOccurrences(of: "c.", with: "c.return_parameters."), expected: capsRead,
                 decodes: capsDecode(LECSReadLocalSupportedCapabilities.opcode, v2: false, V.capabilities.v1Only)),
            Case(name: "Command Complete of LE CS Read Local Supported Capabilities v2 (Core 6.3)",
                 ours: CommandCompleteEvent(opcode: LECSReadLocalSupportedCapabilitiesV2.opcode, returnParameters: capsV2Returned.encode()).packet,
                 python: cc(LECSReadLocalSupportedCapabilitiesV2.opcode, "HCI_LE_CS_Read_Local_Supported_Capabilities_V2_ReturnParameters(status=0, \(capsV2))"),
                 type: "HCI_Command_Complete_Event",
                 fields: "(c.return_parameters.t_ip2_ipt_times_supported, c.return_parameters.t_sw_ipt_times_supported, c.return_parameters.rtt_2m_aa_only_n, c.return_parameters.rtt_2m_sounding_n, c.return_parameters.rtt_2m_random_sequence_n)",
                 expected: "(3, 1, 4, 5, 6)",
                 decodes: capsDecode(LECSReadLocalSupportedCapabilitiesV2.opcode, v2: true, V.capabilities)),
            status(LECSReadRemoteSupportedCapabilities.self, "HCI_LE_CS_Read_Remote_Supported_Capabilities_Command"),
            handle(LECSWriteCachedRemoteSupportedCapabilities.self, "HCI_LE_CS_Write_Cached_Remote_Supported_Capabilities_Command"),
            status(LECSSecurityEnable.self, "HCI_LE_CS_Security_Enable_Command"),
            handle(LECSSetDefaultSettings.self, "HCI_LE_CS_Set_Default_Settings_Command"),
            status(LECSReadRemoteFAETable.self, "HCI_LE_CS_Read_Remote_FAE_Table_Command"),
            handle(LECSWriteCachedRemoteFAETable.self, "HCI_LE_CS_Write_Cached_Remote_FAE_Table_Command"),
            status(LECSCreateConfig.self, "HCI_LE_CS_Create_Config_Command"),
            status(LECSRemoveConfig.self, "HCI_LE_CS_Remove_Config_Command"),
            .complete(LECSSetChannelClassification.self, StatusReturn(status: .invalidHCICommandParameters),
                      python: cc(LECSSetChannelClassification.opcode, "HCI_StatusReturnParameters(status=0x12)"), type: "HCI_Command_Complete_Event",
                      fields: "(type(c.return_parameters).__name__, int(c.return_parameters.status), hci.HCI_LE_CS_Set_Channel_Classification_Command.return_parameters_class.__name__)",
                      expected: "('HCI_StatusReturnParameters', 18, 'HCI_StatusReturnParameters')"),
            handle(LECSSetProcedureParameters.self, "HCI_LE_CS_Set_Procedure_Parameters_Command"),
            status(LECSProcedureEnable.self, "HCI_LE_CS_Procedure_Enable_Command"),
            status(LECSTestEnd.self, "HCI_LE_CS_Test_End_Command"),
        ]
    }

    // MARK: LE Meta events

    static var events: [Case] {
        let resultFields = "(c.connection_handle, c.config_id, c.start_acl_conn_event_counter, c.procedure_counter, c.frequency_compensation, c.reference_power_level, "
            + "c.procedure_done_status, c.subevent_done_status, c.abort_reason, c.num_antenna_paths, \(stepFields))"
        func result(_ r: LECSSubeventResult, _ list: [V.Step]) -> String {
            "hci.HCI_LE_CS_Subevent_Result_Event(connection_handle=0x40, config_id=\(r.configID), start_acl_conn_event_counter=\(r.startACLConnectionEventCounter), "
                + "procedure_counter=\(r.procedureCounter), frequency_compensation=\(r.frequencyCompensation), reference_power_level=\(r.referencePowerLevel), "
                + "procedure_done_status=\(r.procedureDoneStatus.rawValue), subevent_done_status=\(r.subeventDoneStatus.rawValue), abort_reason=\(r.abortReasons.octet), "
                + "num_antenna_paths=\(r.numAntennaPaths), \(steps(list)))"
        }
        let negativePower = LECSSubeventResult(connectionHandle: h, configID: 0, startACLConnectionEventCounter: 0, procedureCounter: 0, referencePowerLevel: -20,
                                               numAntennaPaths: 1, steps: [])
        return [
            .remoteCapabilities("LE CS Read Remote Supported Capabilities Complete", LECSReadRemoteSupportedCapabilitiesComplete(connectionHandle: h, capabilities: V.capabilities.v1Only),
                                python: "hci.HCI_LE_CS_Read_Remote_Supported_Capabilities_Complete_Event(status=0, connection_handle=0x40, \(caps))",
                                type: "HCI_LE_CS_Read_Remote_Supported_Capabilities_Complete_Event", fields: capsFields, expected: capsRead),
            .remoteCapabilities("LE CS Read Remote Supported Capabilities Complete v2 (Core 6.3)",
                                LECSReadRemoteSupportedCapabilitiesComplete(connectionHandle: h, capabilities: V.capabilities, layout: .v2WithPHYSpecificRTT),
                                python: "hci.HCI_LE_CS_Read_Remote_Supported_Capabilities_Complete_V2_Event(status=0, connection_handle=0x40, \(capsV2))",
                                type: "HCI_LE_CS_Read_Remote_Supported_Capabilities_Complete_V2_Event",
                                fields: "(c.t_ip2_ipt_times_supported, c.t_sw_ipt_times_supported, c.rtt_2m_aa_only_n, c.rtt_2m_sounding_n, c.rtt_2m_random_sequence_n)",
                                expected: "(3, 1, 4, 5, 6)"),
            .subevent("LE CS Read Remote FAE Table Complete", LECSReadRemoteFAETableComplete(connectionHandle: h, table: V.faeTable),
                      python: "hci.HCI_LE_CS_Read_Remote_FAE_Table_Complete_Event(status=0, connection_handle=0x40, remote_fae_table=bytes((i - 36) & 0xFF for i in range(72)))",
                      type: "HCI_LE_CS_Read_Remote_FAE_Table_Complete_Event", fields: "(c.connection_handle, c.remote_fae_table[:2].hex(), c.remote_fae_table[-1])",
                      expected: "(64, 'dcdd', 35)"),
            .subevent("LE CS Security Enable Complete", LECSSecurityEnableComplete(status: .insufficientSecurity, connectionHandle: h),
                      python: "hci.HCI_LE_CS_Security_Enable_Complete_Event(status=0x2F, connection_handle=0x40)",
                      type: "HCI_LE_CS_Security_Enable_Complete_Event", fields: "(c.status, c.connection_handle)", expected: "(47, 64)"),
            .subevent("LE CS Config Complete, created", LECSConfigComplete(connectionHandle: h, created: V.configuration),
                      python: "hci.HCI_LE_CS_Config_Complete_Event(status=0, connection_handle=0x40, config_id=2, action=1, main_mode_type=2, sub_mode_type=1, "
                        + "min_main_mode_steps=3, max_main_mode_steps=10, main_mode_repetition=1, mode_0_steps=2, role=0, rtt_type=4, cs_sync_phy=2, "
                        + "channel_map=B('\(V.allowedMap)'), channel_map_repetition=2, channel_selection_type=1, ch3c_shape=1, ch3c_jump=4, reserved=0, "
                        + "t_ip1_time=30, t_ip2_time=20, t_fcs_time=60, t_pm_time=20)",
                      type: "HCI_LE_CS_Config_Complete_Event",
                      fields: "(c.status, c.connection_handle, c.config_id, int(c.action), c.main_mode_type, c.sub_mode_type, c.min_main_mode_steps, c.max_main_mode_steps, "
                        + "c.main_mode_repetition, c.mode_0_steps, c.role, c.rtt_type, c.cs_sync_phy, c.channel_map.hex(), c.channel_map_repetition, "
                        + "c.channel_selection_type, c.ch3c_shape, c.ch3c_jump, c.reserved, c.t_ip1_time, c.t_ip2_time, c.t_fcs_time, c.t_pm_time)",
                      expected: "(0, 64, 2, 1, 2, 1, 3, 10, 1, 2, 0, 4, 2, '\(V.allowedMap)', 2, 1, 1, 4, 0, 30, 20, 60, 20)"),
            .subevent("LE CS Config Complete, removed", LECSConfigComplete(connectionHandle: h, configID: 3, action: .removed, configuration: nil),
                      python: "hci.HCI_LE_CS_Config_Complete_Event(status=0, connection_handle=0x40, config_id=3, action=0, main_mode_type=0, sub_mode_type=0, "
                        + "min_main_mode_steps=0, max_main_mode_steps=0, main_mode_repetition=0, mode_0_steps=0, role=0, rtt_type=0, cs_sync_phy=0, "
                        + "channel_map=bytes(10), channel_map_repetition=0, channel_selection_type=0, ch3c_shape=0, ch3c_jump=0, reserved=0, "
                        + "t_ip1_time=0, t_ip2_time=0, t_fcs_time=0, t_pm_time=0)",
                      type: "HCI_LE_CS_Config_Complete_Event", fields: "(c.config_id, int(c.action))", expected: "(3, 0)"),
            .subevent("LE CS Procedure Enable Complete", LECSProcedureEnableComplete(
                connectionHandle: h, configID: 1, enabled: true, antennaConfigurationIndex: 7, selectedTxPower: -4, subeventLength: 10_000, subeventsPerEvent: 2,
                subeventInterval: 0x0102, eventInterval: 3, procedureInterval: 4, procedureCount: 5, maxProcedureLength: 0x0640),
                      python: "hci.HCI_LE_CS_Procedure_Enable_Complete_Event(status=0, connection_handle=0x40, config_id=1, state=1, tone_antenna_config_selection=7, "
                        + "selected_tx_power=-4, subevent_len=10000, subevents_per_event=2, subevent_interval=0x0102, event_interval=3, procedure_interval=4, "
                        + "procedure_count=5, max_procedure_len=0x0640)",
                      type: "HCI_LE_CS_Procedure_Enable_Complete_Event",
                      fields: "(c.config_id, int(c.state), c.tone_antenna_config_selection, c.selected_tx_power, c.subevent_len, c.subevents_per_event, c.subevent_interval, c.event_interval, c.procedure_interval, c.procedure_count, c.max_procedure_len)",
                      expected: "(1, 1, 7, -4, 10000, 2, 258, 3, 4, 5, 1600)"),
            .result("LE CS Subevent Result, initiator, modes 0 1 2 3", V.initiatorResult, role: .initiator, sequencePCT: false,
                    python: result(V.initiatorResult, V.initiatorSteps), type: "HCI_LE_CS_Subevent_Result_Event",
                    fields: resultFields, expected: "(64, 1, 4660, 5, 258, 5, 1, 0, 0, 2, \(V.stepsRead(V.initiatorSteps)))"),
            .result("LE CS Subevent Result, reflector, PCT1/PCT2", V.reflectorResult, role: .reflector, sequencePCT: true,
                    python: result(V.reflectorResult, V.reflectorSteps), type: "HCI_LE_CS_Subevent_Result_Event",
                    fields: resultFields, expected: "(64, 2, 0, 65535, 49152, 127, 0, 0, 0, 1, \(V.stepsRead(V.reflectorSteps)))"),
            // §7.7.65.44: Reference_Power_Level is signed; Bumble agrees (RootCanal does not).
            .result("LE CS Subevent Result, Reference_Power_Level −20 dBm", negativePower, role: .initiator, sequencePCT: false,
                    python: result(negativePower, []), type: "HCI_LE_CS_Subevent_Result_Event", fields: "c.reference_power_level", expected: "-20"),
            .result("LE CS Subevent Result Continue, aborted, N_AP 4", V.abortedContinue, role: .initiator, sequencePCT: false,
                    python: "hci.HCI_LE_CS_Subevent_Result_Continue_Event(connection_handle=0x40, config_id=3, procedure_done_status=15, subevent_done_status=15, "
                        + "abort_reason=0x32, num_antenna_paths=4, \(steps([V.fourPathStep])))",
                    type: "HCI_LE_CS_Subevent_Result_Continue_Event",
                    fields: "(c.connection_handle, c.config_id, c.procedure_done_status, c.subevent_done_status, c.abort_reason, c.num_antenna_paths, \(stepFields))",
                    expected: "(64, 3, 15, 15, 50, 4, \(V.stepsRead([V.fourPathStep])))"),
        ]
    }

    // MARK: Disagreements

    /// Where Bumble and Core 6.0 Vol 4 Part E part (ours follows the spec; docs/rootcanal.md,
    /// "Codec differences", says why each time). Every one would fail here if it changed.
    static var disagreements: [Case] {
        [
            // §7.7.65.46: LE CS Test End Complete is Subevent_Code and Status, 1 octet of
            // parameters (RootCanal agrees). Bumble's has Connection_Handle then Status: it
            // cannot parse ours, and its constructor builds 3 octets.
            Case(name: "LE CS Test End Complete", ours: LECSTestEndComplete(status: .success).packet,
                 python: "hci.HCI_LE_CS_Test_End_Complete_Event(connection_handle=0x40, status=0)", type: "ERR", builtDiffers: "043e0433400000",
                 parsedAs: "ERR "),
            // §7.8.134: Max_TX_Power is a signed octet (−127 to 20 dBm); Bumble's is unsigned:
            // it reads −3 (0xFD) as 253, and its constructor refuses −3.
            .command(LECSSetDefaultSettings(connectionHandle: h, initiatorEnabled: false, reflectorEnabled: true, csSyncAntennaSelection: 1, maxTxPower: -3),
                     python: "hci.HCI_LE_CS_Set_Default_Settings_Command(connection_handle=0x40, role_enable=2, cs_sync_antenna_selection=1, max_tx_power=253)",
                     type: "HCI_LE_CS_Set_Default_Settings_Command",
                     fields: "(c.max_tx_power, attempt(lambda: bytes(hci.HCI_LE_CS_Set_Default_Settings_Command(connection_handle=0x40, role_enable=2, cs_sync_antenna_selection=1, max_tx_power=-3)))[:10])",
                     expected: "(253, 'ERR ValueE')").named("Max_TX_Power −3 dBm"),
            // §7.8.140: Tx_Power_Delta is signed (0x80: no preference); Bumble reads −3 as 253.
            .command(LECSSetProcedureParameters(connectionHandle: h, configID: 1, parameters: ProcedureParameters(txPowerDelta: -3)),
                     python: "", type: "HCI_LE_CS_Set_Procedure_Parameters_Command", fields: "c.tx_power_delta", expected: "253").named("Tx_Power_Delta −3 dB"),
            // §7.8.130: CS_SYNC_PHYs_Supported bit 1 is LE 2M and bit 2 LE 2M 2BT (bit 0 RFU: LE 1M
            // is mandatory; Zephyr, BlueZ, TI). Bumble's (and RootCanal's) enumeration puts LE 2M
            // at bit 0: it names our 0x02 (LE 2M) "LE_2M_2BT". The octet is kept as sent.
            .remoteCapabilities("CS_SYNC_PHYs_Supported 0x02 (LE 2M)", LECSReadRemoteSupportedCapabilitiesComplete(connectionHandle: h, capabilities: V.capabilities.v1Only),
                                python: "", type: "HCI_LE_CS_Read_Remote_Supported_Capabilities_Complete_Event",
                                fields: "(c.cs_sync_phys_supported, hci.CsSyncPhySupported(c.cs_sync_phys_supported).name)", expected: "(2, 'LE_2M_2BT')"),
            // §7.7.65.44: Config_ID ranges 0–3. Bumble reads 5 as it is (RootCanal cuts it to 2
            // bits, 1; ours refuses the event).
            Case(name: "Subevent Result with Config_ID 5", ours: HCIPacket(leSubevent: LESubeventCode.csSubeventResult,
                                                                          body: Hex.bytes("4000" + "05" + "0000" + "0000" + "00c0" + "7f" + "00000001" + "00")),
                 python: "", type: "HCI_LE_CS_Subevent_Result_Event", fields: "c.config_id", expected: "5"),
            // Core 6.3's v2 capabilities: Bumble's block is 34 octets (with the LE 2M RTT N values);
            // Zephyr's is 31. Ours decodes both and encodes either; Bumble cannot parse the 31.
            .remoteCapabilities("LE CS Read Remote Supported Capabilities Complete v2, 31 octets",
                                LECSReadRemoteSupportedCapabilitiesComplete(connectionHandle: h, capabilities: V.capabilities, layout: .v2),
                                python: "", type: "ERR").writtenBack(as: "ERR "),
            // Core 6.3 LE CS Write Cached Remote Supported Capabilities v2 (0x20A6): Bumble names
            // the opcode but has no class; the generic `HCI_Command` keeps our octets.
            .command(LECSWriteCachedRemoteSupportedCapabilitiesV2(connectionHandle: h, capabilities: V.capabilities, layout: .v2WithPHYSpecificRTT),
                     python: "", type: "HCI_Command"),
            // §7.8.134: LE CS Set Default Settings returns Status and Connection_Handle whatever the
            // status (so do the other three of one connection). Bumble builds that, but reads any
            // failed return as Status alone (`HCI_StatusReturnParameters`): which connection
            // failed is lost to its host (the octets are kept).
            .complete(LECSSetDefaultSettings.self, StatusConnectionHandleReturn(status: .unknownConnectionIdentifier, connectionHandle: h),
                      python: "hci.HCI_Command_Complete_Event(num_hci_command_packets=1, command_opcode=\(LECSSetDefaultSettings.opcode), "
                        + "return_parameters=hci.HCI_StatusAndConnectionHandleReturnParameters(status=2, connection_handle=0x40))",
                      type: "HCI_Command_Complete_Event",
                      fields: "(type(c.return_parameters).__name__, int(c.return_parameters.status), hasattr(c.return_parameters, 'connection_handle'))",
                      expected: "('HCI_StatusReturnParameters', 2, False)").named("Command Complete of LE CS Set Default Settings, failed"),
            // §7.8.143: Test End answers with Command Status (above); Bumble takes a Command
            // Complete for it as generic return parameters.
            Case(name: "Command Complete of LE CS Test End", ours: CommandCompleteEvent(opcode: LECSTestEnd.opcode, status: .success).packet,
                 python: "", type: "HCI_Command_Complete_Event", fields: "type(c.return_parameters).__name__", expected: "'HCI_GenericReturnParameters'"),
        ]
    }

    /// The firmware's split of a long subevent, Bumble building each event from the same steps
    /// and statuses.
    static var split: [Case] {
        CSOracleCheck.split(
            python: { e, i in
                let s = i == V.longSubeventEvents.count - 1 ? 0 : 1
                let tail = "procedure_done_status=\(s), subevent_done_status=\(s), abort_reason=0, num_antenna_paths=4, "
                    + steps(Array(repeating: V.fourPathStep, count: e.steps.count)) + ")"
                return i == 0
                    ? "hci.HCI_LE_CS_Subevent_Result_Event(connection_handle=0x40, config_id=1, start_acl_conn_event_counter=7, procedure_counter=8, frequency_compensation=0xC000, reference_power_level=127, " + tail
                    : "hci.HCI_LE_CS_Subevent_Result_Continue_Event(connection_handle=0x40, config_id=1, " + tail
            },
            result: "HCI_LE_CS_Subevent_Result_Event", continuation: "HCI_LE_CS_Subevent_Result_Continue_Event",
            fields: "(c.procedure_done_status, c.subevent_done_status, len(c.step_mode))",
            expected: { e in
                let s = e == V.longSubeventEvents.last ? 0 : 1
                return "(\(s), \(s), \(e.steps.count))"
            })
    }

    /// The firmware's own answers and events (`CSFirmwareOutput`), each Bumble's CS class.
    static var firmware: [Case] {
        let meta: [UInt8: String] = [
            0x2C: "HCI_LE_CS_Read_Remote_Supported_Capabilities_Complete_Event", 0x38: "HCI_LE_CS_Read_Remote_Supported_Capabilities_Complete_V2_Event",
            0x2D: "HCI_LE_CS_Read_Remote_FAE_Table_Complete_Event", 0x2E: "HCI_LE_CS_Security_Enable_Complete_Event",
            0x2F: "HCI_LE_CS_Config_Complete_Event", 0x30: "HCI_LE_CS_Procedure_Enable_Complete_Event",
            0x31: "HCI_LE_CS_Subevent_Result_Event", 0x32: "HCI_LE_CS_Subevent_Result_Continue_Event",
        ]
        return CSFirmwareOutput.cases(type: { p in
            let k = CSFirmwareOutput.key(p)
            // The controller's v2 capabilities are Zephyr's 31-octet block by default, which Bumble (34) cannot parse (knownDisagreements).
            if k.complete == LECSReadLocalSupportedCapabilitiesV2.opcode { return "ERR" }
            if k.complete != nil { return "HCI_Command_Complete_Event" }
            if k.status != nil { return "HCI_Command_Status_Event" }
            return k.subevent.flatMap { meta[$0] } ?? "a packet the firmware should not send here"
        }, stepCount: "len(c.step_mode)")
    }

    static let oracle = CSOracleCheck.answers(commands + answers + events + disagreements + split + firmware) { cases in
        try BumbleOracle.answers(.hci, cases.map { BumbleOracle.Vector($0.python, ours: Hex.string($0.ours.h4Bytes), fields: $0.fields) })
            .map { CSOracleAnswer(built: $0.built, parsed: $0.parsed, type: $0.type, fields: $0.fields) }
    }

    @Test func commands() throws { try Self.run(Self.commands) }
    @Test func commandAnswers() throws { try Self.run(Self.answers) }
    @Test func events() throws { try Self.run(Self.events) }
    @Test func knownDisagreements() throws { try Self.run(Self.disagreements) }

    /// What the firmware sends a host, parsed by Bumble as its CS classes, unchanged.
    @Test func theFirmwaresOwnPackets() throws { try Self.checkFirmware() }

    /// Firmware encodes, host decodes: our split of a long subevent is Bumble's, and our
    /// reassembler joins Bumble's events into the whole subevent.
    @Test func longSubeventSplitAndJoined() throws { try Self.checkSplitAndJoin() }
}
