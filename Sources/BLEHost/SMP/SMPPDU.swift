import ReflectorFirmware

/// The Security Manager Protocol's commands on the LE SMP fixed channel 0x0006 (Core 6.0
/// Vol 3 Part H §3.3–§3.6): `Code 1 | Data`. Keys, nonces and check values are kept in the
/// order they travel (little-endian, least significant octet first), as the PDU carries them;
/// the pairing reverses them for the toolbox, which works MSB-first. Decoding checks every
/// length exactly; an unknown code throws `.unexpectedCode` (answered with Command Not
/// Supported).
public enum SMPPDU: Equatable, Sendable {
    case pairingRequest(PairingFeatures)
    case pairingResponse(PairingFeatures)
    case pairingConfirm([UInt8])
    case pairingRandom([UInt8])
    case pairingFailed(SMPFailureReason)
    /// LE legacy pairing's distributed LTK.
    case encryptionInformation(longTermKey: [UInt8])
    /// LE legacy pairing's EDIV and Rand for the distributed LTK.
    case centralIdentification(ediv: UInt16, rand: UInt64)
    case identityInformation(irk: [UInt8])
    /// Identity address type (0 public, 1 static random) and the address.
    case identityAddressInformation(random: Bool, address: UInt64)
    case signingInformation(csrk: [UInt8])
    case securityRequest(AuthRequirements)
    /// The P-256 public key: X then Y, 32 octets each, each little-endian.
    case pairingPublicKey(x: [UInt8], y: [UInt8])
    case pairingDHKeyCheck([UInt8])
    /// Passkey entry progress (0 started, 1 digit entered, 2 digit erased, 3 cleared, 4 completed).
    case keypressNotification(UInt8)

    public var code: UInt8 {
        switch self {
        case .pairingRequest: 0x01
        case .pairingResponse: 0x02
        case .pairingConfirm: 0x03
        case .pairingRandom: 0x04
        case .pairingFailed: 0x05
        case .encryptionInformation: 0x06
        case .centralIdentification: 0x07
        case .identityInformation: 0x08
        case .identityAddressInformation: 0x09
        case .signingInformation: 0x0A
        case .securityRequest: 0x0B
        case .pairingPublicKey: 0x0C
        case .pairingDHKeyCheck: 0x0D
        case .keypressNotification: 0x0E
        }
    }

    /// The PDU's octets. A 16- or 32-octet field of another length is cut or zero-padded to
    /// its size (the pairing only ever builds them at their size).
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 65)
        w.u8(code)
        func field(_ v: [UInt8], _ n: Int) { w.octets(Array(v.prefix(n)) + [UInt8](repeating: 0, count: max(0, n - v.count))) }
        switch self {
        case .pairingRequest(let f), .pairingResponse(let f): f.encode(into: &w)
        case .pairingConfirm(let v), .pairingRandom(let v), .encryptionInformation(let v), .identityInformation(let v),
             .signingInformation(let v), .pairingDHKeyCheck(let v):
            field(v, 16)
        case .pairingFailed(let reason): w.u8(reason.rawValue)
        case let .centralIdentification(ediv, rand):
            w.u16(ediv)
            w.u64(rand)
        case let .identityAddressInformation(random, address):
            w.u8(random ? 1 : 0)
            w.address(address)
        case .securityRequest(let auth): w.u8(auth.rawValue)
        case let .pairingPublicKey(x, y):
            field(x, 32)
            field(y, 32)
        case .keypressNotification(let n): w.u8(n)
        }
        return w.bytes
    }

    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> SMPPDU {
        var r = ByteReader(bytes)
        let code = try r.u8("Code")
        func key(_ field: StaticString) throws(DecodeError) -> [UInt8] { Array(try r.octets(16, field)) }
        let pdu: SMPPDU
        switch code {
        case 0x01: pdu = .pairingRequest(try PairingFeatures.decode(from: &r))
        case 0x02: pdu = .pairingResponse(try PairingFeatures.decode(from: &r))
        case 0x03: pdu = .pairingConfirm(try key("Confirm_Value"))
        case 0x04: pdu = .pairingRandom(try key("Random_Value"))
        case 0x05:
            let v = try r.u8("Reason")
            guard let reason = SMPFailureReason(rawValue: v) else { throw .invalidValue(field: "Reason", value: Int(v)) }
            pdu = .pairingFailed(reason)
        case 0x06: pdu = .encryptionInformation(longTermKey: try key("Long_Term_Key"))
        case 0x07: pdu = .centralIdentification(ediv: try r.u16("EDIV"), rand: try r.u64("Rand"))
        case 0x08: pdu = .identityInformation(irk: try key("Identity_Resolving_Key"))
        case 0x09:
            let type = try r.u8("AddrType")
            guard type <= 1 else { throw .invalidValue(field: "AddrType", value: Int(type)) }
            pdu = .identityAddressInformation(random: type == 1, address: try r.address("BD_ADDR"))
        case 0x0A: pdu = .signingInformation(csrk: try key("Signature_Key"))
        case 0x0B: pdu = .securityRequest(AuthRequirements(rawValue: try r.u8("AuthReq")))
        case 0x0C: pdu = .pairingPublicKey(x: Array(try r.octets(32, "Public_Key_X")), y: Array(try r.octets(32, "Public_Key_Y")))
        case 0x0D: pdu = .pairingDHKeyCheck(try key("DHKey_Check"))
        case 0x0E:
            let n = try r.u8("Notification_Type")
            guard n <= 4 else { throw .invalidValue(field: "Notification_Type", value: Int(n)) }
            pdu = .keypressNotification(n)
        default: throw .unexpectedCode(expected: -1, found: Int(code))
        }
        try r.expectEnd()
        return pdu
    }
}
