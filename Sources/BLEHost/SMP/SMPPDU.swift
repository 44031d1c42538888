import ReflectorFirmware

/// The Security Manager Protocol's commands on the LE SMP fixed channel 0x0006 (Core 6.0
/// Vol 3 Part H §3.3–§3.6): `Code 1 | Data`. This is the one place where SMP's byte order is
/// turned: keys, nonces, confirm and check values and the public key travel least significant
/// octet first and are held here as the typed, MSB-first values the toolbox takes (`Key128`,
/// `P256PublicKey`). Decoding checks every length exactly; a reserved code throws
/// `.unexpectedCode`.
public enum SMPPDU: Equatable, Sendable {
    case pairingRequest(PairingFeatures)
    case pairingResponse(PairingFeatures)
    case pairingConfirm(Key128)
    case pairingRandom(Key128)
    case pairingFailed(SMPFailureReason)
    /// LE legacy pairing's distributed LTK.
    case encryptionInformation(longTermKey: Key128)
    /// LE legacy pairing's EDIV and Rand for the distributed LTK.
    case centralIdentification(ediv: UInt16, rand: UInt64)
    case identityInformation(irk: Key128)
    /// Identity address type (0 public, 1 static random) and the address.
    case identityAddressInformation(random: Bool, address: UInt64)
    case signingInformation(csrk: Key128)
    case securityRequest(AuthRequirements)
    case pairingPublicKey(P256PublicKey)
    case pairingDHKeyCheck(Key128)
    /// Passkey entry progress (0 started, 1 digit entered, 2 digit erased, 3 cleared, 4 completed).
    case keypressNotification(UInt8)

    public var code: SMPCode {
        switch self {
        case .pairingRequest: .pairingRequest
        case .pairingResponse: .pairingResponse
        case .pairingConfirm: .pairingConfirm
        case .pairingRandom: .pairingRandom
        case .pairingFailed: .pairingFailed
        case .encryptionInformation: .encryptionInformation
        case .centralIdentification: .centralIdentification
        case .identityInformation: .identityInformation
        case .identityAddressInformation: .identityAddressInformation
        case .signingInformation: .signingInformation
        case .securityRequest: .securityRequest
        case .pairingPublicKey: .pairingPublicKey
        case .pairingDHKeyCheck: .pairingDHKeyCheck
        case .keypressNotification: .keypressNotification
        }
    }

    /// The PDU's octets.
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: code.length)
        w.u8(code.rawValue)
        switch self {
        case .pairingRequest(let f), .pairingResponse(let f): f.encode(into: &w)
        case .pairingConfirm(let v), .pairingRandom(let v), .encryptionInformation(let v), .identityInformation(let v),
             .signingInformation(let v), .pairingDHKeyCheck(let v):
            w.octets(v.wire)
        case .pairingFailed(let reason): w.u8(reason.rawValue)
        case let .centralIdentification(ediv, rand):
            w.u16(ediv)
            w.u64(rand)
        case let .identityAddressInformation(random, address):
            w.u8(random ? 1 : 0)
            w.address(address)
        case .securityRequest(let auth): w.u8(auth.rawValue)
        case .pairingPublicKey(let key): w.octets(key.wire)
        case .keypressNotification(let n): w.u8(n)
        }
        return w.bytes
    }

    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> SMPPDU {
        var r = ByteReader(bytes)
        let value = try r.u8("Code")
        guard let code = SMPCode(rawValue: value) else { throw .unexpectedCode(expected: -1, found: Int(value)) }
        func key(_ field: StaticString) throws(DecodeError) -> Key128 { Key128(wire: try r.octets(16, field)) }
        let pdu: SMPPDU
        switch code {
        case .pairingRequest: pdu = .pairingRequest(try PairingFeatures.decode(from: &r))
        case .pairingResponse: pdu = .pairingResponse(try PairingFeatures.decode(from: &r))
        case .pairingConfirm: pdu = .pairingConfirm(try key("Confirm_Value"))
        case .pairingRandom: pdu = .pairingRandom(try key("Random_Value"))
        case .pairingFailed:
            pdu = .pairingFailed(try r.value("Reason"))
        case .encryptionInformation: pdu = .encryptionInformation(longTermKey: try key("Long_Term_Key"))
        case .centralIdentification: pdu = .centralIdentification(ediv: try r.u16("EDIV"), rand: try r.u64("Rand"))
        case .identityInformation: pdu = .identityInformation(irk: try key("Identity_Resolving_Key"))
        case .identityAddressInformation:
            let type = try r.u8("AddrType")
            guard type <= 1 else { throw .invalidValue(field: "AddrType", value: Int(type)) }
            pdu = .identityAddressInformation(random: type == 1, address: try r.address("BD_ADDR"))
        case .signingInformation: pdu = .signingInformation(csrk: try key("Signature_Key"))
        case .securityRequest: pdu = .securityRequest(AuthRequirements(rawValue: try r.u8("AuthReq")))
        case .pairingPublicKey: pdu = .pairingPublicKey(P256PublicKey(wire: try r.octets(64, "Public_Key")))
        case .pairingDHKeyCheck: pdu = .pairingDHKeyCheck(try key("DHKey_Check"))
        case .keypressNotification:
            let n = try r.u8("Notification_Type")
            guard n <= 4 else { throw .invalidValue(field: "Notification_Type", value: Int(n)) }
            pdu = .keypressNotification(n)
        }
        try r.expectEnd()
        return pdu
    }
}
