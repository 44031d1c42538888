/// Phase 2 of a pairing, one method engine per kind (Core 6.0 Vol 3 Part H §2.3.5):
/// `SecureConnectionsAuthentication` and `LegacyAuthentication`. `PairingSession` runs what
/// both share around it (the receive preamble, the feature exchange, key distribution, the
/// timeout, failure), as NimBLE's `ble_sm.c` runs `ble_sm_sc.c` and `ble_sm_lgcy.c`.
///
/// An engine sees only the PDUs its `expectedCodes` admit (the session's preamble refuses the
/// rest), and the user's answers only when it waits for them.
protocol PairingAuthentication: Sendable {
    /// The codes phase 2 accepts now.
    var expectedCodes: Set<SMPCode> { get }
    /// Waiting for `enterPasskey`.
    var awaitsPasskey: Bool { get }
    /// Waiting for the user's Numeric Comparison answer.
    var awaitsNumberConfirmation: Bool { get }

    /// Phase 2 starts, right after the feature exchange.
    mutating func begin() -> [AuthenticationStep]
    mutating func receive(_ pdu: SMPPDU) -> [AuthenticationStep]
    /// The passkey the user typed (a six-digit value: the session checks).
    mutating func enterPasskey(_ value: UInt32) -> [AuthenticationStep]
    /// The user said the numbers match (a mismatch the session answers itself).
    mutating func numberConfirmed() -> [AuthenticationStep]
}

extension PairingAuthentication {
    var awaitsNumberConfirmation: Bool { false }
    mutating func numberConfirmed() -> [AuthenticationStep] { [] }
}

/// What an engine asks of its session.
enum AuthenticationStep: Sendable, Equatable {
    case send(SMPPDU)
    case displayPasskey(UInt32)
    case requestPasskey
    case compareNumber(UInt32)
    /// Phase 2 failed: the session sends Pairing Failed with this reason.
    case fail(SMPFailureReason)
    /// Phase 2 is done: encrypt the link with this key (LE Secure Connections' LTK, legacy's STK).
    case encrypt(Key128)
}

/// What the feature exchange settled, for the method engine.
struct PairingContext: Sendable {
    let role: PairingSession.Role
    let method: PairingMethod
    let initiatorAddress: PairingAddress
    let responderAddress: PairingAddress
    /// The Pairing Request's and Response's features as exchanged.
    let request: PairingFeatures
    let response: PairingFeatures
    let random: RandomOctets
    let fixedPasskey: UInt32?

    var isInitiator: Bool { role == .initiator }

    /// Whether this side shows the passkey (Table 2.8), else its user types it.
    var displaysPasskey: Bool {
        guard case let .passkey(initiatorDisplays, responderDisplays) = method else { return false }
        return isInitiator ? initiatorDisplays : responderDisplays
    }

    /// The passkey this side shows: fixed (a printed label, Zephyr's `bt_passkey_set`), else
    /// a fresh one per pairing (§2.3.5.3).
    func passkeyToShow() -> UInt32 { fixedPasskey ?? random.passkey() }
}
