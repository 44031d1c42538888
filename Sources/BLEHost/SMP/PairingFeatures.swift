import ReflectorFirmware

/// The IO capability a device states in Pairing Request/Response (Core 6.0 Vol 3 Part H
/// §2.3.2, Table 3.4): what it can show and what a user can enter on it.
public enum IOCapability: UInt8, Sendable, Equatable, CaseIterable {
    case displayOnly = 0x00
    case displayYesNo = 0x01
    case keyboardOnly = 0x02
    case noInputNoOutput = 0x03
    case keyboardDisplay = 0x04
}

/// The AuthReq octet (Vol 3 Part H §3.5.1, Figure 3.3): Bonding_Flags (bits 0–1: 01 bonding),
/// MITM (bit 2), SC (bit 3), Keypress (bit 4), CT2 (bit 5); bits 6–7 RFU, kept as received.
public struct AuthRequirements: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bonding = AuthRequirements(rawValue: 0x01)
    public static let mitm = AuthRequirements(rawValue: 0x04)
    public static let secureConnections = AuthRequirements(rawValue: 0x08)
    public static let keypress = AuthRequirements(rawValue: 0x10)
    public static let ct2 = AuthRequirements(rawValue: 0x20)
}

/// The key distribution octets (Vol 3 Part H §3.6.1, Figure 3.11): EncKey (bit 0: LTK, EDIV,
/// Rand; ignored under LE Secure Connections, whose LTK is derived), IdKey (bit 1: IRK and
/// identity address), SignKey (bit 2: CSRK), LinkKey (bit 3); bits 4–7 RFU.
public struct KeyDistribution: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let encryptionKey = KeyDistribution(rawValue: 0x01)
    public static let identityKey = KeyDistribution(rawValue: 0x02)
    public static let signingKey = KeyDistribution(rawValue: 0x04)
    public static let linkKey = KeyDistribution(rawValue: 0x08)
}

/// The six parameters of Pairing Request and Pairing Response (Vol 3 Part H §3.5.1–§3.5.2):
/// `IO_Capability | OOB_Data_Flag | AuthReq | Maximum_Encryption_Key_Size |
/// Initiator_Key_Distribution | Responder_Key_Distribution`.
public struct PairingFeatures: Sendable, Equatable {
    public var ioCapability: IOCapability
    /// OOB authentication data from the remote device present (0x01) or not (0x00).
    public var oobDataPresent: Bool
    public var authRequirements: AuthRequirements
    /// 7...16 octets.
    public var maxKeySize: UInt8
    public var initiatorKeys: KeyDistribution
    public var responderKeys: KeyDistribution

    public init(ioCapability: IOCapability, oobDataPresent: Bool = false, authRequirements: AuthRequirements,
                maxKeySize: UInt8 = 16, initiatorKeys: KeyDistribution, responderKeys: KeyDistribution) {
        self.ioCapability = ioCapability
        self.oobDataPresent = oobDataPresent
        self.authRequirements = authRequirements
        self.maxKeySize = maxKeySize
        self.initiatorKeys = initiatorKeys
        self.responderKeys = responderKeys
    }

    public static let encodedLength = 6

    public func encode(into w: inout ByteWriter) {
        w.u8(ioCapability.rawValue)
        w.u8(oobDataPresent ? 1 : 0)
        w.u8(authRequirements.rawValue)
        w.u8(maxKeySize)
        w.u8(initiatorKeys.rawValue)
        w.u8(responderKeys.rawValue)
    }

    /// Reserved IO capabilities and OOB flags are refused (the pairing answers Invalid
    /// Parameters); a key size outside 7...16 is kept for the pairing to refuse.
    public static func decode(from r: inout ByteReader) throws(DecodeError) -> PairingFeatures {
        let capability = try r.value("IO_Capability", as: IOCapability.self)
        let oob = try r.u8("OOB_Data_Flag")
        guard oob <= 1 else { throw .invalidValue(field: "OOB_Data_Flag", value: Int(oob)) }
        return PairingFeatures(ioCapability: capability, oobDataPresent: oob == 1, authRequirements: AuthRequirements(rawValue: try r.u8("AuthReq")),
                               maxKeySize: try r.u8("Maximum_Encryption_Key_Size"),
                               initiatorKeys: KeyDistribution(rawValue: try r.u8("Initiator_Key_Distribution")),
                               responderKeys: KeyDistribution(rawValue: try r.u8("Responder_Key_Distribution")))
    }
}
