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
    /// A data length update this side started and the peer has not answered.
    var lengthUpdatePending = false
    /// The host asked for the peer's features (LE Read Remote Features) and waits.
    var featureRequestPending = false
    public var encryption = LinkEncryption()
    /// When the peer's connection events stopped (it left without LL_TERMINATE_IND).
    var peerSilentSince: UInt64?

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

    public var isOn: Bool { phase == .on }
}
