import BLEHost
import RadioWorld
import ReflectorFirmware

/// Everything that decides a loopback run: the world (the Air's scenario, with its seed), the
/// reflector under test, and what the phone asks for. The defaults are an iPhone-like session
/// with this project's reflector: mode 2 with three mode-0 steps, all 72 channels, inline PCT
/// transfer, one antenna path, on a 7.5 ms connection.
public struct LoopbackSetup: Sendable {
    public var scenario: AirScenario
    /// Antenna configuration index (N_AP follows from it).
    public var antennaConfigurationIndex: UInt8
    /// The configuration the phone requests (role initiator).
    public var configuration: CSConfiguration
    /// Procedure parameters the phone sets; Max_Procedure_Count 0 runs until stopped.
    public var parameters: ProcedureParameters
    public var reflectorCapabilities: CSCapabilities
    /// The reflector's Bluetooth version as it reports it (0x11 = 6.3).
    public var reflectorVersion: UInt8
    public var phoneCapabilities: CSCapabilities
    /// Refuse accessories that fail iOS's requirements (an iPhone does).
    public var requireIOSCompliance: Bool
    /// Connection interval in 1.25 ms units.
    public var connectionInterval: UInt16
    /// ATT_MTU of the RAS link (non-inline-PCT runs).
    public var attMTU: Int
    public var recordHCI: Bool

    public init(scenario: AirScenario = AirScenario(), antennaConfigurationIndex: UInt8 = 0, inlinePCT: Bool = true,
                reflectorAntennas: Int? = nil, recordHCI: Bool = false) {
        self.scenario = scenario
        self.antennaConfigurationIndex = antennaConfigurationIndex
        let aci = AntennaConfiguration(index: antennaConfigurationIndex) ?? AntennaConfiguration(index: 0)!
        configuration = PhoneDefaults.configuration(inlinePCT: inlinePCT)
        parameters = PhoneDefaults.parameters(antennaConfiguration: aci)
        reflectorCapabilities = .projectReflector(antennas: reflectorAntennas ?? aci.reflectorAntennas)
        reflectorVersion = 0x11
        phoneCapabilities = .emulatedPhone(antennas: aci.initiatorAntennas)
        requireIOSCompliance = true
        connectionInterval = 6
        attMTU = 247
        self.recordHCI = recordHCI
    }

    /// Time between procedure starts, µs: the Procedure_Interval the controllers agree on
    /// (enough connection events for Max_Procedure_Len, at least the host's minimum).
    public var procedureIntervalMicroseconds: UInt64 {
        let interval = UInt64(max(connectionInterval, 6)) * 1250
        let needed = (UInt64(parameters.maxProcedureLengthMicroseconds) + interval - 1) / interval
        return max(UInt64(parameters.minProcedureInterval), needed) * interval
    }

    /// The connection handle both sides use.
    public static let connectionHandle: UInt16 = 0x0040

    /// Builds the two devices, the air between them, and the link.
    public func makeLink() -> LoopbackLink<AirRadio, AirRadio> {
        let air = Air(scenario: scenario)
        let h = Self.connectionHandle
        var phone = CSController(capabilities: phoneCapabilities, hciVersion: 0x11, address: 0xC0FF_EE00_0001,
                                 connection: LinkConnection(handle: h, isCentral: true, interval: connectionInterval), seed: scenario.seed &* 3 &+ 1)
        var accessory = CSController(capabilities: reflectorCapabilities, hciVersion: reflectorVersion, address: 0xC0FF_EE00_0002,
                                     connection: LinkConnection(handle: h, isCentral: false, interval: connectionInterval), seed: scenario.seed &* 5 &+ 2)
        phone.leftoverBitPolicy = .regeneratePerStep
        accessory.leftoverBitPolicy = .regeneratePerStep
        let host = InitiatorHost(setup: InitiatorHost.Setup(connectionHandle: h, configuration: configuration, parameters: parameters,
                                                            requireIOSCompliance: requireIOSCompliance))
        return LoopbackLink(initiatorHost: host, initiatorController: phone, reflectorHost: ReflectorHost(connectionHandle: h, attMTU: attMTU),
                            reflectorController: accessory, initiatorRadio: air.radio(.initiator), reflectorRadio: air.radio(.reflector),
                            recordHCI: recordHCI)
    }
}
