/// The connection a board is in (Core 6.0 Vol 6 Part B §4.5): who the peer is, the timing the
/// central chose, the data lengths both sides agreed and the encryption state.
public struct Link: Sendable, Equatable {
    public var isCentral: Bool
    public var peer: DeviceAddress
    /// Connection interval (1.25 ms), peripheral latency (events), supervision timeout (10 ms).
    public var interval: UInt16
    public var latency: UInt16
    public var supervisionTimeout: UInt16
    /// This side's limits, and the effective ones once a data length update ran (§4.5.10).
    public var localLengths: DataLengths
    public var effectiveLengths = DataLengths.initial
    /// When this side's data length update began, while the peer has not answered it.
    var lengthUpdateSince: UInt64?
    /// When the host asked for the peer's features (LE Read Remote Features), while it waits.
    var featureRequestSince: UInt64?
    public var encryption = LinkEncryption()
    /// When the peer's connection events stopped (it left without LL_TERMINATE_IND).
    var peerSilentSince: UInt64?
    /// When this side's oldest unanswered LL procedure began (encryption start or pause, the
    /// feature exchange, the data length update): T_PRT (40 s) after it, the link is lost with
    /// LL Response Timeout (Vol 6 Part B §5.2), as the CS controller does for its procedures.
    var procedureSince: UInt64? { [lengthUpdateSince, featureRequestSince, encryption.awaitingSince].compactMap { $0 }.min() }

    var supervisionTimeoutMicroseconds: UInt64 { UInt64(supervisionTimeout) * 10_000 }
}

/// Link encryption as the encryption start and pause procedures leave it (Vol 6 Part B
/// §5.1.3, §5.1.4). The session key is SK = e(LTK, SKD) with SKD = SKDm ‖ SKDs; on the air
/// its fingerprint stands in for the CCM MIC (`AirPDU.data`).
public struct LinkEncryption: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        case off
        /// The start procedure runs (LL_ENC_REQ sent or received).
        case starting
        case on
        /// The pause procedure runs before a key refresh.
        case pausing
    }

    public var phase = Phase.off
    /// The key the start procedure uses: the central's host's, or the peripheral's host's reply.
    var longTermKey: [UInt8]?
    var rand: UInt64 = 0
    var ediv: UInt16 = 0
    var skdm: UInt64 = 0
    var skds: UInt64 = 0
    /// The session key's fingerprint this side encrypts with and expects, nil in the clear.
    var txKey: UInt64?
    var rxKey: UInt64?
    /// The start follows a pause (a key refresh): the host hears Encryption Key Refresh Complete.
    var refreshing = false
    /// When this side sent the PDU it waits on the peer's answer to (LL_ENC_REQ or
    /// LL_PAUSE_ENC_REQ from the central, LL_START_ENC_REQ from the peripheral).
    var awaitingSince: UInt64?

    public var isOn: Bool { phase == .on }
}
