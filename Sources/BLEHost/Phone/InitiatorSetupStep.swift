import ReflectorFirmware

/// The phone's Channel Sounding set-up after the controller's (`ControllerSetup`), one named
/// step at a time, each a command and, for most, the event it starts (Core 6.0 Vol 4 Part E
/// §7.8.10–§7.8.12 scanning and connecting, §7.8.24 encryption, §7.8.130–§7.8.141 CS, Vol 6
/// Part H §4.1 for the order an initiator's host takes).
public enum InitiatorSetupStep: Int, CaseIterable, Sendable {
    /// Scan actively until an advertiser passes the plan's filter (only with a scan plan).
    case scan
    /// LE Create Connection to the peer (only with a connection plan).
    case connect
    /// LE Enable Encryption with the bond's key, or the key pairing gives (only when connecting).
    case encrypt
    case readLocalCapabilities
    case readRemoteVersion
    case readRemoteCapabilities
    case enableSecurity
    case setDefaultSettings
    case createConfig
    case setProcedureParameters
    case enableProcedures

    /// The event a step waits for after its command's answer, by name for messages.
    public enum Awaited: Sendable, Equatable {
        case advertiser, connection, encryption, remoteVersion, remoteCapabilities, securityEnabled, configCreated, proceduresEnabled

        public var name: String {
            switch self {
            case .advertiser: "LE Advertising Report"
            case .connection: "LE Connection Complete"
            case .encryption: "Encryption Change"
            case .remoteVersion: "Read Remote Version Information Complete"
            case .remoteCapabilities: "LE CS Read Remote Supported Capabilities Complete"
            case .securityEnabled: "LE CS Security Enable Complete"
            case .configCreated: "LE CS Config Complete"
            case .proceduresEnabled: "LE CS Procedure Enable Complete"
            }
        }
    }

    /// What the step waits for once its commands are answered.
    public var awaits: Awaited? {
        switch self {
        case .scan: .advertiser
        case .connect: .connection
        case .encrypt: .encryption
        case .readRemoteVersion: .remoteVersion
        case .readRemoteCapabilities: .remoteCapabilities
        case .enableSecurity: .securityEnabled
        case .createConfig: .configCreated
        case .enableProcedures: .proceduresEnabled
        case .readLocalCapabilities, .setDefaultSettings, .setProcedureParameters: nil
        }
    }

    public var next: InitiatorSetupStep? { InitiatorSetupStep(rawValue: rawValue + 1) }
}
